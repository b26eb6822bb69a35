import { isResourceId } from '@pfs/contracts';
import type { DataSource } from 'typeorm';
import { returnedRows } from '../sync/resource-table';
import { handleOf, type UserChange, type UserRead } from '../sync/user-change';
import { WEBHOOK_APP_IS_LIVE } from './webhook-liveness';
import { toWebhook, type Webhook } from './webhook.repository';

/** An event of the outbox: a committed change one of the user's webhooks subscribes to. */
export interface OutboxEvent {
  id: string;
  userId: string;
  type: string;
  objectId: string;
  createdAt: Date;
}

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';

export interface WebhookAttempt {
  attemptedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

/** One event for one webhook: the payload as sent (every attempt sends the same bytes) and its attempts. */
export interface WebhookDelivery {
  id: string;
  webhookId: string;
  userId: string;
  eventId: string;
  eventType: string;
  payload: Record<string, unknown>;
  status: WebhookDeliveryStatus;
  createdAt: Date;
  completedAt: Date | null;
  attempts: WebhookAttempt[];
}

/**
 * What a delivery attempt needs: the delivery and its webhook with the encrypted secret, and whether its
 * application is still let in by the user (WEBHOOK_APP_IS_LIVE: a revoked app's queued deliveries are not sent).
 */
export interface DeliveryToAttempt {
  delivery: WebhookDelivery;
  webhook: Webhook;
  secretEncrypted: string;
  appIsLive: boolean;
}

const DELIVERY_COLUMNS = `d.id::text AS id, d.webhook_id::text AS webhook_id, d.user_id::text AS user_id,
  d.event_id::text AS event_id, d.event_type, d.payload, d.status, d.created_at, d.completed_at,
  coalesce((SELECT json_agg(json_build_object('attempted_at', a.attempted_at, 'status_code', a.status_code,
    'latency_ms', a.latency_ms, 'error', a.error) ORDER BY a.id) FROM webhook_attempts a WHERE a.delivery_id = d.id),
    '[]'::json) AS attempt_list`;

function toDelivery(row: Record<string, unknown>): WebhookDelivery {
  const attempts = row.attempt_list as Array<Record<string, unknown>>;
  return {
    id: String(row.id),
    webhookId: String(row.webhook_id),
    userId: String(row.user_id),
    eventId: String(row.event_id),
    eventType: String(row.event_type),
    payload: row.payload as Record<string, unknown>,
    status: row.status as WebhookDeliveryStatus,
    createdAt: row.created_at as Date,
    completedAt: (row.completed_at as Date | null) ?? null,
    attempts: attempts.map((attempt) => ({
      attemptedAt: new Date(String(attempt.attempted_at)),
      statusCode: (attempt.status_code as number | null) ?? null,
      latencyMs: Number(attempt.latency_ms),
      error: (attempt.error as string | null) ?? null,
    })),
  };
}

/**
 * The webhook outbox and deliveries. The relay (API) claims events and fans each out to its subscribers;
 * the delivery job (worker) records every attempt; the owner lists deliveries and asks for redeliveries.
 * The relay's and the job's methods span every user and use the pool; the owner's are scoped to the user.
 */
export class WebhookDeliveryRepository {
  constructor(private readonly source: DataSource) {}

  /**
   * Claims up to `limit` events, oldest first, each for `leaseSeconds` (SKIP LOCKED: concurrent relays never
   * claim the same one; a relay that dies leaves its events to be claimed again after the lease).
   */
  async claimEvents(limit: number, leaseSeconds: number): Promise<OutboxEvent[]> {
    const rows = await this.source.query(
      `UPDATE webhook_events SET claimed_until = clock_timestamp() + make_interval(secs => $2)
       WHERE id IN (SELECT id FROM webhook_events WHERE claimed_until IS NULL OR claimed_until < clock_timestamp()
                    ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING id::text AS id, user_id::text AS user_id, type, object_id::text AS object_id, created_at`,
      [limit, leaseSeconds],
    );
    return returnedRows(rows)
      .map((row) => ({
        id: String(row.id),
        userId: String(row.user_id),
        type: String(row.type),
        objectId: String(row.object_id),
        createdAt: row.created_at as Date,
      }))
      .sort((a, b) => Number(a.id) - Number(b.id));
  }

  /**
   * The user's enabled webhooks subscribed to `type` whose application the user still lets in (a live grant,
   * or a live personal token: WEBHOOK_APP_IS_LIVE), with the application each belongs to.
   */
  async subscribers(userId: string, type: string): Promise<Array<{ id: string; app: string }>> {
    const rows: Array<{ id: string; app: string }> = await this.source.query(
      `SELECT w.id::text AS id, w.app FROM webhooks w
       WHERE w.user_id = $1 AND w.enabled AND $2 = ANY (w.events) AND ${WEBHOOK_APP_IS_LIVE} ORDER BY w.id`,
      [userId, type],
    );
    return rows;
  }

  /**
   * Turns an event into its deliveries and removes it from the outbox, in one statement (both or neither;
   * a relay that claimed the event twice creates each delivery once). Returns the new deliveries' ids.
   */
  async fanOut(
    event: OutboxEvent,
    deliveries: Array<{ webhookId: string; payload: Record<string, unknown> }>,
  ): Promise<string[]> {
    const rows = await this.source.query(
      `WITH gone AS (DELETE FROM webhook_events WHERE id = $1 RETURNING id)
       INSERT INTO webhook_deliveries (webhook_id, user_id, event_id, event_type, payload)
       SELECT d.webhook_id, $2, $1, $3, d.payload
       FROM jsonb_to_recordset($4::jsonb) AS d (webhook_id bigint, payload jsonb)
       WHERE EXISTS (SELECT 1 FROM gone) AND EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id)
       ON CONFLICT (webhook_id, event_id) DO NOTHING
       RETURNING id::text AS id`,
      [
        event.id,
        event.userId,
        event.type,
        JSON.stringify(deliveries.map((d) => ({ webhook_id: d.webhookId, payload: d.payload }))),
      ],
    );
    return returnedRows(rows).map((row) => String(row.id));
  }

  /** Pending deliveries no job was queued for yet (the relay queues them; a lost queueing is retried). */
  async unqueued(limit: number): Promise<Array<{ id: string; run: number }>> {
    const rows: Array<{ id: string; runs: number }> = await this.source.query(
      `SELECT id::text AS id, runs FROM webhook_deliveries WHERE queued_at IS NULL AND status = 'pending'
       ORDER BY id LIMIT $1`,
      [limit],
    );
    return rows.map((row) => ({ id: row.id, run: Number(row.runs) }));
  }

  async markQueued(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.source.query(
      `UPDATE webhook_deliveries SET queued_at = clock_timestamp() WHERE id = ANY ($1)`,
      [ids],
    );
  }

  /** A page of the webhook's deliveries, newest first, with their attempts, and how many there are. */
  async list(
    user: UserRead,
    webhookId: string,
    page: number,
    perPage: number,
  ): Promise<{ total: number; items: WebhookDelivery[] }> {
    const handle = handleOf(user);
    const [count]: Array<{ total: string }> = await handle.query(
      `SELECT count(*)::text AS total FROM webhook_deliveries WHERE webhook_id = $1 AND user_id = $2`,
      [webhookId, user.userId],
    );
    const rows: Array<Record<string, unknown>> = await handle.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.webhook_id = $1 AND d.user_id = $2
       ORDER BY d.id DESC LIMIT $3 OFFSET $4`,
      [webhookId, user.userId, perPage, page * perPage],
    );
    return { total: Number(count.total), items: rows.map(toDelivery) };
  }

  async find(user: UserRead, webhookId: string, id: string): Promise<WebhookDelivery | undefined> {
    if (!isResourceId(id)) return undefined;
    const rows: Array<Record<string, unknown>> = await handleOf(user).query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.id = $1 AND d.webhook_id = $2 AND d.user_id = $3`,
      [id, webhookId, user.userId],
    );
    return rows[0] ? toDelivery(rows[0]) : undefined;
  }

  /**
   * Makes a finished delivery pending again for a new run (the same payload and webhook-id, so a receiver
   * that processed it can tell). Returns the run; undefined when it is still pending (or not there).
   */
  async redeliver(user: UserRead, webhookId: string, id: string): Promise<number | undefined> {
    if (!isResourceId(id)) return undefined;
    const rows = await handleOf(user).query(
      `UPDATE webhook_deliveries SET status = 'pending', runs = runs + 1, queued_at = NULL, completed_at = NULL
       WHERE id = $1 AND webhook_id = $2 AND user_id = $3 AND status <> 'pending' RETURNING runs`,
      [id, webhookId, user.userId],
    );
    const [row] = returnedRows(rows);
    return row ? Number(row.runs) : undefined;
  }

  /** The delivery and its webhook (with its encrypted secret), for an attempt. */
  async loadForAttempt(id: string): Promise<DeliveryToAttempt | undefined> {
    if (!isResourceId(id)) return undefined;
    const rows: Array<Record<string, unknown>> = await this.source.query(
      `SELECT ${DELIVERY_COLUMNS}, w.id::text AS w_id, w.user_id::text AS w_user_id, w.app, w.url, w.events,
         w.description, w.enabled, w.disabled_reason, w.created_at AS w_created_at, w.modified_at AS w_modified_at,
         w.secret_encrypted, ${WEBHOOK_APP_IS_LIVE} AS app_is_live
       FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE d.id = $1`,
      [id],
    );
    const [row] = rows;
    if (!row) return undefined;
    const webhook = toWebhook({
      ...row,
      id: row.w_id,
      user_id: row.w_user_id,
      created_at: row.w_created_at,
      modified_at: row.w_modified_at,
    });
    return {
      delivery: toDelivery(row),
      webhook,
      secretEncrypted: String(row.secret_encrypted),
      appIsLive: Boolean(row.app_is_live),
    };
  }

  /**
   * Records one attempt and where the delivery stands after it, in one statement; a success ends the
   * webhook's failing streak, a failure starts it if none is running. Returns when the streak began.
   */
  async recordAttempt(
    deliveryId: string,
    attempt: Omit<WebhookAttempt, 'attemptedAt'>,
    status: WebhookDeliveryStatus,
  ): Promise<{ failingSince: Date | null }> {
    const rows = await this.source.query(
      `WITH attempt AS (
         INSERT INTO webhook_attempts (delivery_id, status_code, latency_ms, error) VALUES ($1, $2, $3, $4)),
       delivery AS (
         UPDATE webhook_deliveries SET attempts = attempts + 1, status = $5,
           completed_at = CASE WHEN $5 = 'pending' THEN NULL ELSE clock_timestamp() END
         WHERE id = $1 RETURNING webhook_id)
       UPDATE webhooks w SET failing_since = CASE WHEN $5 = 'succeeded' THEN NULL
           ELSE coalesce(w.failing_since, clock_timestamp()) END
       FROM delivery WHERE w.id = delivery.webhook_id RETURNING w.failing_since`,
      [deliveryId, attempt.statusCode, attempt.latencyMs, attempt.error, status],
    );
    const [row] = returnedRows(rows);
    return { failingSince: (row?.failing_since as Date | null) ?? null };
  }

  /** Ends a pending delivery without sending it (its webhook was disabled). */
  async cancel(deliveryId: string): Promise<void> {
    await this.source.query(
      `UPDATE webhook_deliveries SET status = 'cancelled', completed_at = clock_timestamp()
       WHERE id = $1 AND status = 'pending'`,
      [deliveryId],
    );
  }

  /**
   * Disables an enabled webhook of the change's user, saying why, and cancels its pending deliveries, in the
   * change's transaction (the caller notifies the user in that same change: both or neither). False when it
   * was already disabled (or is gone): then nothing changes.
   */
  async disable(change: UserChange, webhookId: string, reason: string): Promise<boolean> {
    const rows = await handleOf(change).query(
      `WITH disabled AS (
         UPDATE webhooks SET enabled = false, disabled_reason = $3, modified_at = clock_timestamp()
         WHERE id = $1 AND user_id = $2 AND enabled RETURNING id),
       cancelled AS (
         UPDATE webhook_deliveries d SET status = 'cancelled', completed_at = clock_timestamp()
         FROM disabled WHERE d.webhook_id = disabled.id AND d.status = 'pending')
       SELECT id FROM disabled`,
      [webhookId, change.userId, reason],
    );
    return returnedRows(rows).length > 0;
  }
}
