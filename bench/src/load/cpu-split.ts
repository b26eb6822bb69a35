import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { generatorCpuMillis } from './generate-load';

interface Proc {
  ppid: number;
  comm: string;
  cpuMs: number;
}

/** Every live process's parent, command name and CPU time (user + system) so far, from /proc. */
function processes(): Map<number, Proc> {
  const table = new Map<number, Proc>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(name), {
        ppid: Number(fields[1]),
        comm,
        cpuMs: (Number(fields[11]) + Number(fields[12])) * 10,
      });
    } catch {
      // Ended between the listing and the read.
    }
  }
  return table;
}

/** The machine's busy and total CPU time so far (all cores, /proc/stat), in ms. */
function machine(): { busyMs: number; totalMs: number } {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = ticks.map(Number);
  const total = user + nice + system + idle + iowait + irq + softirq + steal;
  return { busyMs: (total - idle - iowait) * 10, totalMs: total * 10 };
}

export interface CpuSnapshot {
  at: number;
  procs: Map<number, Proc>;
  generator: { own: number; children: number };
  machine: { busyMs: number; totalMs: number };
}

export const cpuSnapshot = (): CpuSnapshot => ({
  at: performance.now(),
  procs: processes(),
  generator: generatorCpuMillis(),
  machine: machine(),
});

/** Pids of `root` and every process below it (a cluster primary and its workers). */
function tree(procs: Map<number, Proc>, root: number): Set<number> {
  const found = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, proc] of procs)
      if (!found.has(pid) && found.has(proc.ppid)) {
        found.add(pid);
        grew = true;
      }
  }
  return found;
}

/** CPU ms the processes matching `pick` spent between the snapshots (one that started between them: all of it). */
function spent(before: CpuSnapshot, after: CpuSnapshot, pick: (pid: number, proc: Proc) => boolean): number {
  let ms = 0;
  for (const [pid, proc] of after.procs)
    if (pick(pid, proc)) ms += proc.cpuMs - (before.procs.get(pid)?.cpuMs ?? 0);
  return ms;
}

/**
 * Where the machine's CPU went during one load run, in cores (CPU seconds per second of the run): the API
 * processes (the tree under `apiPid`), the load generator (wrk, a child of this process, or autocannon in
 * it), every redis-server and every postgres / pgbouncer process of the machine (shared with whatever else
 * runs: on a loaded machine they include other work), the rest of the machine, and what stayed idle.
 */
export function cpuSplit(before: CpuSnapshot, after: CpuSnapshot, apiPid: number, requests: number): string {
  const seconds = (after.at - before.at) / 1000;
  const api = tree(after.procs, apiPid);
  const apiMs = spent(before, after, (pid) => api.has(pid));
  const generatorMs =
    after.generator.own - before.generator.own + after.generator.children - before.generator.children;
  const redisMs = spent(before, after, (_, proc) => proc.comm === 'redis-server');
  const postgresMs = spent(before, after, (_, proc) => proc.comm === 'postgres' || proc.comm === 'pgbouncer');
  const busyMs = after.machine.busyMs - before.machine.busyMs;
  const totalMs = after.machine.totalMs - before.machine.totalMs;
  const cores = (ms: number) => (ms / 1000 / seconds).toFixed(2);
  const other = Math.max(0, busyMs - apiMs - generatorMs - redisMs - postgresMs);
  return [
    `${availableParallelism()} cores, ${seconds.toFixed(1)} s: api ${cores(apiMs)}`,
    `(${(apiMs / Math.max(requests, 1)).toFixed(3)} ms/req)`,
    `generator ${cores(generatorMs)}, redis ${cores(redisMs)}, postgres ${cores(postgresMs)},`,
    `other ${cores(other)}, idle ${cores(totalMs - busyMs)}`,
  ].join(' ');
}
