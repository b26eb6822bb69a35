import type { DataSource } from 'typeorm';

/** A response kept for replay: what the first request with a key answered. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
}

export type IdempotencyClaim =
  | { state: 'claimed' }
  | { state: 'replay'; response: StoredResponse }
  /** The first request with this key is still running. */
  | { state: 'in_progress' }
  /** The key was used for a different request. */
  | { state: 'mismatch' };

/**
 * `Idempotency-Key` bookkeeping per user in Postgres: a key is claimed before the write runs (so two
 * concurrent retries cannot both write) and completed with the response. Expired keys are free again.
 */
/** One claim in this many also deletes the user's expired keys, so the table stays small without a job. */
const PURGE_CHANCE = 0.01;

export class IdempotencyRepository {
  constructor(private readonly source: DataSource) {}

  async claim(
    userId: string,
    key: string,
    requestHash: string,
    ttlSeconds: number,
  ): Promise<IdempotencyClaim> {
    const claimed = await this.source.query(
      `INSERT INTO idempotency_keys (user_id, key, request_hash, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4))
       ON CONFLICT (user_id, key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, status = NULL, headers = NULL, body = NULL,
             created_at = now(), expires_at = EXCLUDED.expires_at
         WHERE idempotency_keys.expires_at <= now()
       RETURNING 1`,
      [userId, key, requestHash, ttlSeconds],
    );
    if (claimed.length) {
      // Now and then, clear this user's expired keys (a key that comes back is reused in place anyway).
      if (Math.random() < PURGE_CHANCE) {
        await this.source.query(`DELETE FROM idempotency_keys WHERE user_id = $1 AND expires_at <= now()`, [
          userId,
        ]);
      }
      return { state: 'claimed' };
    }
    const [row] = await this.source.query(
      `SELECT request_hash, status, headers, body FROM idempotency_keys WHERE user_id = $1 AND key = $2`,
      [userId, key],
    );
    if (!row) return this.claim(userId, key, requestHash, ttlSeconds);
    if (row.request_hash !== requestHash) return { state: 'mismatch' };
    if (row.status === null) return { state: 'in_progress' };
    return {
      state: 'replay',
      response: { status: row.status, headers: row.headers ?? {}, body: row.body ?? undefined },
    };
  }

  async complete(userId: string, key: string, response: StoredResponse): Promise<void> {
    await this.source.query(
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

  /** Frees a key whose request failed, so the client's retry runs again. */
  async release(userId: string, key: string): Promise<void> {
    await this.source.query(
      `DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND status IS NULL`,
      [userId, key],
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
