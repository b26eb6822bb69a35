import type { DataSource, EntityManager } from 'typeorm';
import { claimChangeSeq, inTransaction } from '../sync/change-sequence';
import { type Actor, type UserChange, userChangeOf } from '../sync/user-change';

/** A response kept for replay: what the first request with a key answered. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
}

export type IdempotentOutcome =
  /** This request ran: its change and its stored response committed together. */
  | { state: 'ran'; response: StoredResponse }
  /** An earlier request with this key and body committed: its response, nothing ran. */
  | { state: 'replay'; response: StoredResponse }
  /** The key was used for a different request. */
  | { state: 'mismatch' };

/** One claim in this many also deletes the user's expired keys, so the table stays small without a job. */
const PURGE_CHANCE = 0.01;

/**
 * `Idempotency-Key` bookkeeping per user in Postgres. The claim of a key, the write it guards and the
 * response kept for replay are one transaction (`runOnce`): a committed key always holds its response, and
 * a request that failed for any reason (an error, a database that died mid-request) leaves no claim behind,
 * so its retry simply runs again. A concurrent duplicate waits on the uncommitted claim row, then replays.
 */
export class IdempotencyRepository {
  /** `written` runs after a write this repository ran has committed (UserStore.written: read-your-writes). */
  constructor(
    private readonly source: DataSource,
    private readonly written: (who: Actor) => Promise<void> = async () => undefined,
  ) {}

  /**
   * Claims `key` and runs `work` as the user's change in the same transaction, storing its response before
   * the one commit. Nothing runs when the key already answered (replay) or names another request.
   */
  runOnce(
    claim: Actor & { key: string; requestHash: string; ttlSeconds: number },
    work: (change: UserChange) => Promise<StoredResponse>,
  ): Promise<IdempotentOutcome> {
    return inTransaction(this.source, async (manager, hooks): Promise<IdempotentOutcome> => {
      const found = await this.claim(manager, claim);
      if (found) return found;
      hooks.commit.push(() => this.written(claim));
      // The key row first, then the user's change sequence: a duplicate waiting on the key holds no user
      // lock, and a replay moves no watermark.
      const changeSeq = await claimChangeSeq(manager, claim.userId);
      const response = await work(userChangeOf(manager, claim, changeSeq, hooks));
      await this.complete(manager, claim.userId, claim.key, response);
      return { state: 'ran', response };
    });
  }

  /**
   * Inserts the claim (undefined: claimed) or answers with what the key holds. An insert that meets an
   * uncommitted claim of the same key waits for that transaction: committed, the key holds its response
   * (replay); rolled back, the key is free and this insert claims it. An expired key is reused in place; so
   * is a key left without response by an earlier version that claimed outside the write's transaction.
   */
  private async claim(
    manager: EntityManager,
    claim: { userId: string; key: string; requestHash: string; ttlSeconds: number },
  ): Promise<IdempotentOutcome | undefined> {
    const { userId, key, requestHash, ttlSeconds } = claim;
    const claimed = await manager.query(
      `INSERT INTO idempotency_keys (user_id, key, request_hash, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4))
       ON CONFLICT (user_id, key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, status = NULL, headers = NULL, body = NULL,
             created_at = now(), expires_at = EXCLUDED.expires_at
         WHERE idempotency_keys.expires_at <= now() OR idempotency_keys.status IS NULL
       RETURNING 1`,
      [userId, key, requestHash, ttlSeconds],
    );
    if (claimed.length) {
      // Now and then, clear this user's expired keys (a key that comes back is reused in place anyway).
      if (Math.random() < PURGE_CHANCE) {
        await manager.query(
          `DELETE FROM idempotency_keys WHERE user_id = $1 AND expires_at <= now() AND key <> $2`,
          [userId, key],
        );
      }
      return undefined;
    }
    const [row] = await manager.query(
      `SELECT request_hash, status, headers, body FROM idempotency_keys WHERE user_id = $1 AND key = $2`,
      [userId, key],
    );
    // The row is locked by the insert above (ON CONFLICT locks the row it declined to update): it is there.
    if (row.request_hash !== requestHash) return { state: 'mismatch' };
    return {
      state: 'replay',
      response: { status: row.status, headers: row.headers ?? {}, body: row.body ?? undefined },
    };
  }

  private async complete(
    manager: EntityManager,
    userId: string,
    key: string,
    response: StoredResponse,
  ): Promise<void> {
    await manager.query(
      `UPDATE idempotency_keys SET status = $3, headers = $4, body = $5 WHERE user_id = $1 AND key = $2`,
      [
        userId,
        key,
        response.status,
        JSON.stringify(response.headers),
        response.body === undefined ? null : JSON.stringify(response.body),
      ],
    );
  }

  /** Deletes expired keys; returns how many. */
  async purgeExpired(): Promise<number> {
    const rows = await this.source.query(
      `DELETE FROM idempotency_keys WHERE expires_at <= now() RETURNING 1`,
    );
    return Array.isArray(rows[0]) ? rows[0].length : rows.length;
  }
}
