import type { ChildProcess } from 'node:child_process';

const live = new Set<ChildProcess>();
let hooked = false;

/**
 * A private server (Redis Cluster node, PgBouncer) is killed when the process that started it exits, even when
 * it exits without calling the server's `stop` (a failed bench, a test process ending on an error): nothing
 * stays behind listening on a loopback port. `stop` remains the way to end it and clean its files.
 */
export function killOnExit(child: ChildProcess): void {
  if (!hooked) {
    hooked = true;
    // Synchronous: an 'exit' listener cannot wait, and SIGKILL needs no answer.
    process.on('exit', () => live.forEach((server) => server.kill('SIGKILL')));
  }
  live.add(child);
  child.once('exit', () => live.delete(child));
}
