import { returnedRows } from '../sync/resource-table';
import { handleOf, type UserRead } from '../sync/user-change';
import type { DataSource } from 'typeorm';

export const PUSH_TOKEN_TYPES = ['apple', 'apple_fcm', 'google', 'windows'] as const;
export type PushTokenType = (typeof PUSH_TOKEN_TYPES)[number];

export interface PushToken {
  id: string;
  userId: string;
  clientId: string | null;
  type: PushTokenType;
  /** The device token itself: a push provider needs it verbatim, so it cannot be stored hashed. */
  token: string;
}

export type PushDeliveryStatus = 'pending' | 'sent' | 'failed' | 'skipped';

export interface PushDelivery {
  id: string;
  pushTokenId: string;
  notificationId: string;
  payload: Record<string, unknown>;
  createdAt: Date;
  status: PushDeliveryStatus;
  attempts: number;
  lastError: string | null;
}

/** A pending push claimed for sending, with the device it goes to. */
export interface DuePush {
  id: string;
  attempts: number;
  payload: Record<string, unknown>;
  device: PushToken;
  /** The device's token was declared dead after this push was recorded: it is skipped, not sent. */
  deviceInvalid: boolean;
}

function toPushToken(row: Record<string, unknown>): PushToken {
  return {
    id: String(row.id),
    userId: String(row.user_id),
    clientId: (row.client_id as string | null) ?? null,
    type: row.type as PushTokenType,
    token: String(row.token),
  };
}

/**
 * Device tokens registered through POST /me/push, and the pushes recorded for them. A user's devices and
 * pushes are reached through the user's `UserRead`: they are settings and an outbox, not synced resources, so
 * writing them claims no change sequence (no `UserChange`). The delivery job's methods span every user and
 * use the pool.
 */
export class PushTokenRepository {
  constructor(private readonly source: DataSource) {}

  /** Registers a device; registering it again only refreshes it. */
  async register(
    user: UserRead,
    clientId: string | undefined,
    type: PushTokenType,
    token: string,
  ): Promise<void> {
    await handleOf(user).query(
      `INSERT INTO push_tokens (user_id, client_id, type, token, modified_at) VALUES ($1, $2, $3, $4, clock_timestamp())
       ON CONFLICT (user_id, type, token) DO UPDATE SET client_id = EXCLUDED.client_id, modified_at = clock_timestamp(),
         invalid_at = NULL`,
      [user.userId, clientId ?? null, type, token],
    );
  }

  /** The user's devices that can still receive pushes (a provider has not declared their token dead). */
  async listForUser(user: UserRead): Promise<PushToken[]> {
    const rows: Array<Record<string, unknown>> = await handleOf(user).query(
      `SELECT id::text AS id, user_id::text AS user_id, client_id, type, token FROM push_tokens
       WHERE user_id = $1 AND invalid_at IS NULL ORDER BY id`,
      [user.userId],
    );
    return rows.map(toPushToken);
  }

  /** Records what a push to this device carries, once per notification (retries do not push twice). */
  async recordDelivery(
    user: UserRead,
    pushTokenId: string,
    notificationId: string,
    payload: Record<string, unknown>,
  ): Promise<void> {
    await handleOf(user).query(
      `INSERT INTO push_deliveries (user_id, push_token_id, notification_id, payload) VALUES ($1, $2, $3, $4)
       ON CONFLICT (push_token_id, notification_id) DO NOTHING`,
      [user.userId, pushTokenId, notificationId, payload],
    );
  }

  async listDeliveries(user: UserRead): Promise<PushDelivery[]> {
    const rows: Array<Record<string, unknown>> = await handleOf(user).query(
      `SELECT id::text AS id, push_token_id::text AS push_token_id, notification_id::text AS notification_id, payload,
         created_at, status, attempts, last_error
       FROM push_deliveries WHERE user_id = $1 ORDER BY id`,
      [user.userId],
    );
    return rows.map((row) => ({
      id: String(row.id),
      pushTokenId: String(row.push_token_id),
      notificationId: String(row.notification_id),
      payload: row.payload as Record<string, unknown>,
      createdAt: row.created_at as Date,
      status: row.status as PushDeliveryStatus,
      attempts: Number(row.attempts),
      lastError: (row.last_error as string | null) ?? null,
    }));
  }

  /**
   * Claims up to `limit` pending pushes that are due, each for `leaseSeconds`: its next attempt moves past
   * the lease, so another worker does not send it meanwhile, and a worker that dies mid-send leaves it to be
   * retried after the lease. The claim itself is one statement (SKIP LOCKED), so concurrent workers never
   * claim the same row.
   */
  async claimDue(limit: number, leaseSeconds: number): Promise<DuePush[]> {
    const rows = await this.source.query(
      `UPDATE push_deliveries d SET attempts = d.attempts + 1,
         next_attempt_at = clock_timestamp() + make_interval(secs => $2)
       FROM push_tokens t
       WHERE d.id IN (SELECT id FROM push_deliveries WHERE status = 'pending' AND next_attempt_at <= clock_timestamp()
                      ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
         AND t.id = d.push_token_id
       RETURNING d.id::text AS id, d.attempts, d.payload, t.id::text AS token_id, t.user_id::text AS user_id,
         t.client_id, t.type, t.token, t.invalid_at`,
      [limit, leaseSeconds],
    );
    return returnedRows(rows).map((row) => ({
      id: String(row.id),
      attempts: Number(row.attempts),
      payload: row.payload as Record<string, unknown>,
      device: toPushToken({ ...row, id: row.token_id }),
      deviceInvalid: row.invalid_at !== null,
    }));
  }

  /** Records how a claimed push ended: sent, failed for good, skipped, or pending again at `retryAt`. */
  async settle(
    id: string,
    outcome:
      | { status: 'sent' }
      | { status: 'failed' | 'skipped'; error: string }
      | { status: 'pending'; error: string; retryAt: Date },
  ): Promise<void> {
    await this.source.query(
      `UPDATE push_deliveries SET status = $2, last_error = $3,
         sent_at = CASE WHEN $2 = 'sent' THEN clock_timestamp() END,
         next_attempt_at = COALESCE($4, next_attempt_at)
       WHERE id = $1`,
      [
        id,
        outcome.status,
        'error' in outcome ? outcome.error : null,
        'retryAt' in outcome ? outcome.retryAt : null,
      ],
    );
  }

  /** A provider said this device token is dead: no more pushes to it until the app registers it again. */
  async markInvalid(tokenId: string): Promise<void> {
    await this.source.query(`UPDATE push_tokens SET invalid_at = clock_timestamp() WHERE id = $1`, [tokenId]);
  }
}
