import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
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

/**
 * Starts a Node entry point as its own process (so it gets its own core, apart from the load generator)
 * and waits for the `"url":"…"` it logs when listening.
 */
export async function startServiceProcess(
  entry: string,
  env: Record<string, string>,
  timeoutMs = 120_000,
  nodeArgs: string[] = [],
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${entry} did not start in time:\n${output}`)),
      timeoutMs,
    );
    const poll = setInterval(() => {
      const match = /"url":"(https?:\/\/[^"]+)"/.exec(output);
      if (match) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(match[1]);
      } else if (child.exitCode !== null) {
        clearInterval(poll);
        clearTimeout(timer);
        reject(new Error(`${entry} exited with ${child.exitCode}:\n${output}`));
      }
    }, 50);
  });
  // Keep the pipes drained so a chatty child never blocks on a full buffer.
  output = '';
  child.stdout!.on('data', () => (output = ''));
  return {
    url,
    child,
    peakRssBytes: () => peakRssBytesOf(child.pid!),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
