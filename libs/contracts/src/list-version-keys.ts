/**
 * The signal that a user's list version moved (docs/rate-limits.md, "The list version held in the process").
 * After every committed write that moves the version (the change watermark, or the profile's `modified`), the
 * writing process (API, worker, auth, CLI) sets `list-version:<userId>` (under the deployment prefix) before it
 * answers or completes its job. The value means nothing: the write is the signal. API processes track the
 * prefix (Redis client-side caching, BCAST), so each drops its held copy of that user's version on the
 * invalidation. The key expires soon after (its expiry is one more harmless invalidation).
 */
export const LIST_VERSION_KEY_PREFIX = 'list-version:';

export const listVersionKey = (userId: string) => `${LIST_VERSION_KEY_PREFIX}${userId}`;

/** How long a signal key lives: only its writes matter, so it need not outlive a burst of writes. */
export const LIST_VERSION_SIGNAL_TTL_MS = 60_000;

/** The one Redis command the signal needs (ioredis's `set` fits it). */
export interface ListVersionSignalTarget {
  set(key: string, value: string, expiry: 'PX', milliseconds: number): Promise<unknown>;
}

/**
 * Sets the user's signal key after a committed write. Never throws: the write has committed, and a lost
 * signal leaves another process's copy stale for at most its own short lifetime (`onError` logs it).
 */
export async function signalListVersionMoved(
  redis: ListVersionSignalTarget,
  userId: string,
  onError: (error: unknown) => void,
): Promise<void> {
  try {
    await redis.set(listVersionKey(userId), '1', 'PX', LIST_VERSION_SIGNAL_TTL_MS);
  } catch (error) {
    onError(error);
  }
}
