import type { Redis } from 'ioredis';

/** What closing needs of a BullMQ Queue (this lib stays free of BullMQ). */
export interface QueueOnSharedConnection {
  waitUntilReady(): Promise<unknown>;
  close(): Promise<void>;
}

/** How long a close lets a queue's start-up (connect, version check) finish before ending it. */
const START_UP_WAIT_MS = 2_000;

/** Resolves true when `work` settles (either way) within `ms`, false otherwise. */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, ms, false)));
  const settled = work.then(
    () => true,
    () => true,
  );
  try {
    return await Promise.race([settled, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Closes a BullMQ queue built on a connection we own, then that connection, without an unhandled 'error'.
 * BullMQ's close() of a shared connection removes its 'error' listeners at once; a start-up still in flight
 * (an app closed right after it started) then fails on our disconnect with nobody listening, and the
 * EventEmitter throws "Unhandled error. (Error: Connection is closed.)". So the start-up is settled first:
 * it gets a bounded time to finish; if it cannot (Redis down or hung), disconnecting ends it while the
 * queue's listeners are still attached.
 */
export async function closeQueueAndConnection(
  queue: QueueOnSharedConnection,
  connection: Redis,
): Promise<void> {
  const startUp = queue.waitUntilReady();
  if (!(await settlesWithin(startUp, START_UP_WAIT_MS))) {
    connection.disconnect();
    await settlesWithin(startUp, START_UP_WAIT_MS);
  }
  await queue.close().catch(() => undefined);
  connection.disconnect();
}
