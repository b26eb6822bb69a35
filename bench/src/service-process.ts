import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { killOnExit, stopGroup } from './process-groups';

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** Where the process's stdout and stderr go (its log lines); removed by `stop`. */
  logFile: string;
  stop(): Promise<void>;
  /** The process's peak resident set size so far (Linux VmHWM), in bytes. */
  peakRssBytes(): number;
}

/** Reads a live process's high-water mark of resident memory from /proc (Linux). */
export function peakRssBytesOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

/** CPU time (user + system) a live process has used so far, in milliseconds (Linux /proc, 100 ticks/s). */
export function cpuMillisOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Starts a Node entry point as its own process (so it gets its own core, apart from the load generator)
 * and waits for the `"url":"…"` it logs when listening, at most `timeoutMs`: a process that does not start
 * (or exits) is killed with its whole tree and the error carries its log. The process leads its own process
 * group, stopped as a whole by `stop` and killed when the bench exits (process-groups.ts). Its output goes
 * to a file, not a pipe: a pipe would be read by this process, the one running the load generator, so a
 * service's per-request log lines would slow the client measuring it (and not the bare endpoint, which logs
 * nothing).
 */
export async function startServiceProcess(
  entry: string,
  env: Record<string, string>,
  timeoutMs = 120_000,
  nodeArgs: string[] = [],
): Promise<ServiceProcess> {
  const logFile = join(mkdtempSync(join(tmpdir(), 'pfs-bench-')), `${basename(entry, '.js')}.log`);
  const output = openSync(logFile, 'w');
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    env: { ...process.env, ...env },
    stdio: ['ignore', output, output],
    detached: true,
  });
  closeSync(output);
  killOnExit(child);
  const logged = () => readFileSync(logFile, 'utf8');
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      clearInterval(poll);
      reject(new Error(`${entry} did not start within ${timeoutMs / 1000} s:\n${logged()}`));
    }, timeoutMs);
    const poll = setInterval(() => {
      const match = /"url":"(https?:\/\/[^"]+)"/.exec(logged());
      if (match) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(match[1]);
      } else if (child.exitCode !== null || child.signalCode !== null) {
        clearInterval(poll);
        clearTimeout(timer);
        const end = child.exitCode ?? child.signalCode;
        reject(new Error(`${entry} exited with ${end} before it listened:\n${logged()}`));
      }
    }, 50);
  }).catch(async (error: Error) => {
    await stopGroup(child, 5_000);
    rmSync(dirname(logFile), { recursive: true, force: true });
    throw error;
  });
  return {
    url,
    child,
    logFile,
    peakRssBytes: () => peakRssBytesOf(child.pid!),
    async stop() {
      await stopGroup(child);
      rmSync(dirname(logFile), { recursive: true, force: true });
    },
  };
}
