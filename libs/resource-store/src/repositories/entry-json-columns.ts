import type { JsonColumn } from '../sync/json-page';

/**
 * The entries' own columns (entry.repository.ts's `columns`, same names, same order) as exact JSON, for reading
 * a page of entries as one JSON value (json-page.ts): bigints and numerics as text (as pg gives them; a JSON
 * number would round them), bigint arrays as text arrays, the day as text, jsonb and the rest as they are.
 */
export const ENTRY_JSON_COLUMNS: readonly JsonColumn[] = [
  ['account_id', 't.account_id::text'],
  ['category_id', 't.category_id::text'],
  ['amount', 't.amount::text'],
  ['currency', 't.currency'],
  ['rate', 't.rate::text'],
  ['fixed', 't.fixed'],
  ['account_amount', 't.account_amount::text'],
  ['date', 't.date::text'],
  ['description', 't.description'],
  ['tag_ids', 't.tag_ids::text[]'],
  ['location', 't.location'],
  ['reminders', 't.reminders'],
  ['completed', 't.completed'],
  ['transaction_id', 't.transaction_id::text'],
  ['image_ids', 't.image_ids::text[]'],
  ['repeat_id', 't.repeat_id::text'],
  ['iteration', 't.iteration'],
];
