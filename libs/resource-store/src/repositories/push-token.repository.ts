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

export interface PushDelivery {
  id: string;
  pushTokenId: string;
  notificationId: string;
  payload: Record<string, unknown>;
  createdAt: Date;
}

/** Device tokens registered through POST /me/push, and the pushes recorded for them. */
export class PushTokenRepository {
  constructor(private readonly source: DataSource) {}

  /** Registers a device; registering it again only refreshes it. */
  async register(
    userId: string,
    clientId: string | undefined,
    type: PushTokenType,
    token: string,
  ): Promise<void> {
    await this.source.query(
      `INSERT INTO push_tokens (user_id, client_id, type, token, modified_at) VALUES ($1, $2, $3, $4, clock_timestamp())
       ON CONFLICT (user_id, type, token) DO UPDATE SET client_id = EXCLUDED.client_id, modified_at = clock_timestamp()`,
      [userId, clientId ?? null, type, token],
    );
  }

  async listForUser(userId: string): Promise<PushToken[]> {
    const rows: Array<Record<string, unknown>> = await this.source.query(
      `SELECT id::text AS id, user_id::text AS user_id, client_id, type, token FROM push_tokens WHERE user_id = $1 ORDER BY id`,
      [userId],
    );
    return rows.map((row) => ({
      id: String(row.id),
      userId: String(row.user_id),
      clientId: (row.client_id as string | null) ?? null,
      type: row.type as PushTokenType,
      token: String(row.token),
    }));
  }

  /** Records what a push to this device carries, once per notification (retries do not push twice). */
  async recordDelivery(
    userId: string,
    pushTokenId: string,
    notificationId: string,
    payload: Record<string, unknown>,
  ): Promise<void> {
    await this.source.query(
      `INSERT INTO push_deliveries (user_id, push_token_id, notification_id, payload) VALUES ($1, $2, $3, $4)
       ON CONFLICT (push_token_id, notification_id) DO NOTHING`,
      [userId, pushTokenId, notificationId, payload],
    );
  }

  async listDeliveries(userId: string): Promise<PushDelivery[]> {
    const rows: Array<Record<string, unknown>> = await this.source.query(
      `SELECT id::text AS id, push_token_id::text AS push_token_id, notification_id::text AS notification_id, payload, created_at
       FROM push_deliveries WHERE user_id = $1 ORDER BY id`,
      [userId],
    );
    return rows.map((row) => ({
      id: String(row.id),
      pushTokenId: String(row.push_token_id),
      notificationId: String(row.notification_id),
      payload: row.payload as Record<string, unknown>,
      createdAt: row.created_at as Date,
    }));
  }
}
