import { isResourceId } from '@pfs/contracts';
import { returnedRows } from '../sync/resource-table';
import { handleOf, type UserRead } from '../sync/user-change';

/** A webhook as its owner sees it (never its secret). */
export interface Webhook {
  id: string;
  userId: string;
  /** The application it belongs to: the OAuth client id, or `personal` for personal tokens. */
  app: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  /** Why it was disabled automatically (null when enabled, or disabled by its owner). */
  disabledReason: string | null;
  createdAt: Date;
  modifiedAt: Date;
}

export interface WebhookInput {
  url: string;
  events: string[];
  description: string | null;
}

const COLUMNS = `id::text AS id, user_id::text AS user_id, app, url, events, description, enabled, disabled_reason,
  created_at, modified_at`;

export function toWebhook(row: Record<string, unknown>): Webhook {
  return {
    id: String(row.id),
    userId: String(row.user_id),
    app: String(row.app),
    url: String(row.url),
    events: row.events as string[],
    description: (row.description as string | null) ?? null,
    enabled: Boolean(row.enabled),
    disabledReason: (row.disabled_reason as string | null) ?? null,
    createdAt: row.created_at as Date,
    modifiedAt: row.modified_at as Date,
  };
}

/**
 * A user's webhooks, each private to the application that registered it: every query is scoped to the user
 * and the application. They are settings, not synced resources: writing them claims no change sequence.
 */
export class WebhookRepository {
  /** Registers a webhook; `secretEncrypted` is the signing secret as WebhookSecretCipher encrypted it. */
  async create(user: UserRead, app: string, input: WebhookInput, secretEncrypted: string): Promise<Webhook> {
    const rows = await handleOf(user).query(
      `INSERT INTO webhooks (user_id, app, url, events, description, secret_encrypted)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [user.userId, app, input.url, input.events, input.description, secretEncrypted],
    );
    return toWebhook(returnedRows(rows)[0]);
  }

  async list(user: UserRead, app: string): Promise<Webhook[]> {
    const rows: Array<Record<string, unknown>> = await handleOf(user).query(
      `SELECT ${COLUMNS} FROM webhooks WHERE user_id = $1 AND app = $2 ORDER BY id`,
      [user.userId, app],
    );
    return rows.map(toWebhook);
  }

  async findById(user: UserRead, app: string, id: string): Promise<Webhook | undefined> {
    if (!isResourceId(id)) return undefined;
    const rows: Array<Record<string, unknown>> = await handleOf(user).query(
      `SELECT ${COLUMNS} FROM webhooks WHERE id = $1 AND user_id = $2 AND app = $3`,
      [id, user.userId, app],
    );
    return rows[0] ? toWebhook(rows[0]) : undefined;
  }

  /**
   * Replaces the URL, events, description and enabled state. Enabling a webhook clears what its automatic
   * disabling recorded, so its failures count afresh. Undefined when there is no such webhook.
   */
  async update(
    user: UserRead,
    app: string,
    id: string,
    input: WebhookInput & { enabled: boolean },
  ): Promise<Webhook | undefined> {
    if (!isResourceId(id)) return undefined;
    const rows = await handleOf(user).query(
      `UPDATE webhooks SET url = $4, events = $5, description = $6, enabled = $7,
         disabled_reason = CASE WHEN $7 THEN NULL ELSE disabled_reason END,
         failing_since = CASE WHEN $7 AND NOT enabled THEN NULL ELSE failing_since END,
         modified_at = clock_timestamp()
       WHERE id = $1 AND user_id = $2 AND app = $3 RETURNING ${COLUMNS}`,
      [id, user.userId, app, input.url, input.events, input.description, input.enabled],
    );
    const [row] = returnedRows(rows);
    return row ? toWebhook(row) : undefined;
  }

  /** Deletes the webhook with its deliveries; false when there was none. */
  async delete(user: UserRead, app: string, id: string): Promise<boolean> {
    if (!isResourceId(id)) return false;
    const rows = await handleOf(user).query(
      `DELETE FROM webhooks WHERE id = $1 AND user_id = $2 AND app = $3 RETURNING id`,
      [id, user.userId, app],
    );
    return returnedRows(rows).length > 0;
  }
}
