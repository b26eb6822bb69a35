import type { ChildProcess } from 'node:child_process';

/**
 * The bench's child processes, each started as the leader of its own process group (`detached`), so that a
 * service's whole tree (a cluster primary and its workers) is signalled at once. Whatever is still alive when
 * the bench exits, normally, on an error or on SIGINT/SIGTERM/SIGHUP, is killed then: no run leaves an API
 * process behind, whichever way it ends.
 */
const live = new Set<ChildProcess>();

/** Sends `signal` to the child's whole process group; false when there was none left. */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, signal);
    return true;
  } catch {
    return false;
  }
}

let exitHooked = false;
function hookExit() {
  if (exitHooked) return;
  exitHooked = true;
  // Synchronous: an 'exit' listener cannot wait.
  process.on('exit', () => live.forEach((child) => signalGroup(child, 'SIGKILL')));
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)
    process.once(signal, () => {
      process.stderr.write(`bench: ${signal}, stopping its processes\n`);
      process.exit(code);
    });
}

/** Kills the child's group when the bench exits, unless `stopGroup` has stopped it first. */
export function killOnExit(child: ChildProcess): void {
  hookExit();
  live.add(child);
  child.once('exit', () => {
    // The leader is gone; its group may not be (a worker that outlived its primary): kill what is left.
    signalGroup(child, 'SIGKILL');
    live.delete(child);
  });
}

/**
 * Stops a child's process group: `SIGTERM` (a service drains and exits), then `SIGKILL` to the whole group
 * after `graceMs` or as soon as the leader has exited (nothing of the tree may outlive it).
 */
export async function stopGroup(child: ChildProcess, graceMs = 45_000): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    signalGroup(child, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
  signalGroup(child, 'SIGKILL');
  live.delete(child);
}
