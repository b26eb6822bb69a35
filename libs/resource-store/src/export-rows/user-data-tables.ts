/**
 * The tables holding a user's own data, exported whole by the `user_data` archive (docs/exports.md). Listed
 * here, by name, rather than discovered: a table added later is exported only once someone decides it is
 * the user's data (the store's test fails until every table with a `user_id` is in one of these two lists).
 */
export const USER_DATA_TABLES = [
  'accounts',
  'budgets',
  'categories',
  'entries',
  'images',
  'notifications',
  'repeats',
  'tags',
] as const;

/**
 * Tables with a `user_id` that are never exported: credentials and OAuth state (secrets), device push tokens
 * and their deliveries, internal bookkeeping (idempotency, sync state, revisions), the exports themselves
 * (their links unlock files), statement imports and their duplicate keys (requests and bookkeeping: the
 * entries they wrote are exported), and webhooks (an application's settings, with its encrypted signing secret), their
 * outbox and delivery log.
 */
export const PRIVATE_USER_TABLES = [
  'auth_credentials',
  'auth_email_tokens',
  'auth_recovery_codes',
  'oauth_authorization_codes',
  'oauth_grants',
  'oauth_tokens',
  'push_tokens',
  'push_deliveries',
  'idempotency_keys',
  'user_sync_state',
  'resource_revisions',
  'exports',
  'imports',
  'import_keys',
  'webhooks',
  'webhook_events',
  'webhook_deliveries',
] as const;

/** Columns never exported from any table, whatever it is. */
export const SECRET_COLUMN = /(password|secret|hash|token)/i;

/**
 * Columns that are not the user's data but a copy derived from it for speed, by table: left out of the archive
 * (`entries.presented_line`: the entry's presented text, migration 1764700000000-store-entry-presented-lines.ts).
 */
export const DERIVED_COLUMNS: Readonly<Record<string, readonly string[]>> = { entries: ['presented_line'] };
