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

/**
 * A write within this long of the last signal a process sent for the user does not send its own: it awaits
 * that one (ListVersionSignals). Sound because API processes hold no copy of a user's version for
 * LIST_VERSION_QUIET_MS after an invalidation of it (see ListVersionSignals).
 */
export const LIST_VERSION_SIGNAL_REUSE_MS = 50;
/** How long an API process holds no copy of a user's version after its invalidation (or a flush). */
export const LIST_VERSION_QUIET_MS = 2 * LIST_VERSION_SIGNAL_REUSE_MS;

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

/**
 * A process's signals, at most one per user per LIST_VERSION_SIGNAL_REUSE_MS: a write committed within that
 * long of the last signal sent for its user awaits that signal instead of sending one (a user's burst of
 * writes costs a few Redis commands, not one each). Why it stays exact: that signal was sent at `at`, after
 * which the write committed at `t < at + REUSE`; a process receives it at `i >= at` and holds no copy of the
 * user until `i + QUIET >= at + 2 * REUSE > t + REUSE`, so a copy it holds was read after `t` and includes the
 * write; a read in flight when the signal arrived is not held either. The write is answered only once that
 * signal was acknowledged. A failed signal is not reused.
 * `Context`: what the caller hands with a write (the API: its request's trace), given back to `onError` for the
 * write that sent the failed signal.
 */
export class ListVersionSignals<Context = undefined> {
  private readonly sent = new Map<string, { at: number; done: Promise<void> }>();

  constructor(
    private readonly redis: ListVersionSignalTarget,
    private readonly onError: (error: unknown, userId: string, context?: Context) => void,
  ) {}

  /** After a committed write of the user, before its answer: resolves when a signal covering it was acknowledged. */
  moved(userId: string, context?: Context): Promise<void> {
    const now = Date.now();
    const last = this.sent.get(userId);
    if (last && now - last.at < LIST_VERSION_SIGNAL_REUSE_MS) return last.done;
    if (this.sent.size >= 10_000) this.forgetOlderThan(now - LIST_VERSION_SIGNAL_REUSE_MS);
    const entry = { at: now, done: Promise.resolve() };
    entry.done = signalListVersionMoved(this.redis, userId, (error) => {
      if (this.sent.get(userId) === entry) this.sent.delete(userId);
      this.onError(error, userId, context);
    });
    this.sent.set(userId, entry);
    return entry.done;
  }

  private forgetOlderThan(at: number): void {
    for (const [userId, entry] of this.sent) if (entry.at < at) this.sent.delete(userId);
  }
}
