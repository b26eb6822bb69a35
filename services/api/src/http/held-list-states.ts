import { LIST_VERSION_KEY_PREFIX, LIST_VERSION_QUIET_MS } from '@pfs/contracts';
import type { ActorStore, ListState } from '@pfs/resource-store';
import { HeldValues } from '../middleware/held-values';
import type { TrackedKeys } from '../middleware/tracked-keys';

/** How long a held list state may be used without an invalidation: bounds a lost signal (a writer that died). */
export const HELD_LIST_STATE_MAX_AGE_MS = 1_000;
/** How many users' list states are held at most (a few hundred bytes each). */
export const HELD_LIST_STATE_MAX_ENTRIES = 20_000;

/**
 * Each user's list state (UserStore.listState: the list version and the currency settings) held in this process,
 * so an unchanged page (and the other unchanged answers) needs no Postgres statement. Why: that read was the
 * largest piece left of the unchanged page's cost (docs/bench.md, the ablation and session 7).
 *
 * Kept true by the writers' signal: every committed write that moves a user's version sets
 * `list-version:<userId>` in Redis before it answers (UserStore.written, in the API, worker, auth and CLI), and
 * the gate's tracked keys (TrackedKeys, CLIENT TRACKING BCAST) report that key's invalidation here, which drops
 * the copy. A write in this process drops it at once, before the Redis round trip. The rules are TrackedKeys's
 * (the same bookkeeping: HeldValues):
 * - Used only while tracking is on (`keys.enabled`): without it (a Redis Cluster, GATE_LOCAL_CACHE=off, a
 *   connection down or coming back) every call reads Postgres as before, and everything held is forgotten when
 *   tracking goes down or comes up again (an invalidation may have been lost).
 * - A read in flight when the user's invalidation (or a flush) arrives does not store what it read: it may
 *   predate the write. A read that begins after the invalidation began after the write's commit.
 * - After an invalidation of a user (or a flush: everyone) nothing of that user is held for LIST_VERSION_QUIET_MS:
 *   a writer's later commits within a short window share its earlier signal (ListVersionSignals in
 *   @pfs/contracts says why that stays exact); a user being written is read from Postgres meanwhile.
 * - A copy lives at most HELD_LIST_STATE_MAX_AGE_MS: a writer that died between its commit and its signal
 *   leaves other processes' copies stale for at most that long.
 */
export class HeldListStates {
  private readonly held: HeldValues<ListState>;
  /** Until when (ms) nothing of a user, or of anyone, is held: LIST_VERSION_QUIET_MS after an invalidation. */
  private readonly quietUntil = new Map<string, number>();
  private everyoneQuietUntil = 0;

  constructor(
    private readonly store: Pick<ActorStore, 'listState'>,
    private readonly keys: TrackedKeys | undefined,
    private readonly maxAgeMs = HELD_LIST_STATE_MAX_AGE_MS,
    private readonly maxEntries = HELD_LIST_STATE_MAX_ENTRIES,
  ) {
    this.held = new HeldValues(maxEntries);
    keys?.watch(LIST_VERSION_KEY_PREFIX, (key) =>
      key === undefined ? this.forgetAll() : this.forget(key.slice(LIST_VERSION_KEY_PREFIX.length)),
    );
  }

  /** How many users' states are held (tests). */
  get size(): number {
    return this.held.size;
  }

  /** Whether the user's state is held now (tests). */
  holds(userId: string): boolean {
    return this.held.get([userId], Date.now()) !== undefined;
  }

  /** The user's list state: held, or read from Postgres (and held when that is safe). */
  async listState(userId: string): Promise<ListState> {
    if (!this.keys?.enabled) return this.store.listState(userId);
    const held = this.held.get([userId], Date.now());
    if (held) return held[0];
    if (this.isQuiet(userId)) return this.store.listState(userId);
    const { result: state, clean } = await this.held.load([userId], () => this.store.listState(userId));
    if (clean && this.keys.enabled) this.held.set(userId, state, Date.now() + this.maxAgeMs);
    return state;
  }

  /** Drops the user's copy (a write of the user committed, here or in another process). */
  forget(userId: string): void {
    this.held.invalidate(userId);
    const now = Date.now();
    if (this.quietUntil.size >= this.maxEntries)
      for (const [id, until] of this.quietUntil) if (until <= now) this.quietUntil.delete(id);
    this.quietUntil.set(userId, now + LIST_VERSION_QUIET_MS);
  }

  private forgetAll(): void {
    this.held.flush();
    this.quietUntil.clear();
    this.everyoneQuietUntil = Date.now() + LIST_VERSION_QUIET_MS;
  }

  private isQuiet(userId: string): boolean {
    const now = Date.now();
    if (now < this.everyoneQuietUntil) return true;
    const until = this.quietUntil.get(userId);
    if (until === undefined) return false;
    if (until > now) return true;
    this.quietUntil.delete(userId);
    return false;
  }
}
