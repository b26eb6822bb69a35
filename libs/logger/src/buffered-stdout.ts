import pino from 'pino';

/**
 * Stdout written asynchronously: lines logged while a write is in flight go out together in the next one,
 * so a busy server makes one write per batch instead of one blocking write per line, and a quiet one
 * still writes each line at once. pino flushes what is buffered when the process exits.
 */
export function bufferedStdout(): pino.DestinationStream {
  return pino.destination({ dest: 1, sync: false });
}
