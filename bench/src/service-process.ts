import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

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
 * and waits for the `"url":"…"` it logs when listening. Its output goes to a file, not a pipe: a pipe
 * would be read by this process, the one running the load generator, so a service's per-request log
 * lines would slow the client measuring it (and not the bare endpoint, which logs nothing).
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
  });
  closeSync(output);
  const logged = () => readFileSync(logFile, 'utf8');
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${entry} did not start in time:\n${logged()}`)),
      timeoutMs,
    );
    const poll = setInterval(() => {
      const match = /"url":"(https?:\/\/[^"]+)"/.exec(logged());
      if (match) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(match[1]);
      } else if (child.exitCode !== null) {
        clearInterval(poll);
        clearTimeout(timer);
        reject(new Error(`${entry} exited with ${child.exitCode}:\n${logged()}`));
      }
    }, 50);
  });
  return {
    url,
    child,
    logFile,
    peakRssBytes: () => peakRssBytesOf(child.pid!),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dirname(logFile), { recursive: true, force: true });
    },
  };
}
