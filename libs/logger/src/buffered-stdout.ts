import pino from 'pino';

/** About fifteen request lines: one write per batch instead of one per line. */
const BATCH_BYTES = 4096;
/** A quiet server's lines still reach stdout within this. */
const FLUSH_INTERVAL_MS = 250;

/**
 * Stdout written asynchronously and in batches: lines are buffered until 4 KB have accumulated (or 250 ms
 * have passed, or a write in flight has finished and the batch is full), so a busy server makes one
 * write per batch instead of one per line; each write costs a system call and a thread-pool hand-off,
 * which was a tenth of the CPU of an authenticated `GET /me` (docs/bench.md). pino flushes what is
 * buffered when the process exits.
 */
export function bufferedStdout(): pino.DestinationStream {
  return pino.destination({
    dest: 1,
    sync: false,
    minLength: BATCH_BYTES,
    periodicFlush: FLUSH_INTERVAL_MS,
  });
}
