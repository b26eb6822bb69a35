import type { CustomRate } from '@pfs/money';
import { insertExtraSql } from '../sync/app-extra';
import type { OneTripStatement } from '../sync/one-trip-change';
import type { Actor } from '../sync/user-change';
import { type Entry, type EntrySnapshot, entriesTable } from './entry.repository';
import { toCustomRates } from './user.repository';

/** An entry to create (no transfer, no series) and the currency its account had when the snapshot was made. */
export interface PlainEntryWrite {
  snapshot: EntrySnapshot;
  accountCurrency: string;
}

/** What the statement answers: the created entries in the order given, with what presenting them needs. */
export interface PlainEntriesCreated {
  entries: Entry[];
  settings: { main: string; customRates: CustomRate[] };
}

/** The SQL type of each column `entriesTable.toColumns` writes, as the JSON rows carry it (jsonb as text). */
const ROW_TYPES: Record<string, string> = {
  account_id: 'bigint',
  category_id: 'bigint',
  amount: 'numeric',
  currency: 'text',
  rate: 'numeric',
  fixed: 'boolean',
  account_amount: 'numeric',
  date: 'date',
  description: 'text',
  tag_ids: 'bigint[]',
  location: 'text',
  reminders: 'text',
  completed: 'boolean',
  transaction_id: 'bigint',
  image_ids: 'bigint[]',
  extra: 'text',
};
const JSONB_COLUMNS = new Set(['location', 'reminders', 'extra']);

/**
 * Creates plain entries (no transfer, no series) as one statement of a one-trip change (runOneTripChange):
 * the entries and their first revisions, and each account's balance and live-entry count moved once, from
 * one JSON array of rows (no per-row SQL or parameters, whatever the batch size). The caller checked the
 * references before the change; the statement checks them again under the user's write lock (every account
 * live and still in the currency its amount was converted to, every category, tag and image live) and, if
 * any changed meanwhile, writes nothing and answers `undefined` (the caller then takes the ordinary path, which
 * names the field). The claimed change sequence then stays used by no row: numbers stay unique and ordered.
 */
export function plainEntriesInsert(
  actor: Actor,
  writes: PlainEntryWrite[],
): OneTripStatement<PlainEntriesCreated | undefined> {
  const names = Object.keys(ROW_TYPES);
  const rows = writes.map(({ snapshot, accountCurrency }, n) => ({
    ...entriesTable.options.toColumns(snapshot),
    n,
    account_currency: accountCurrency,
    snapshot,
  }));
  // Two texts (hence two prepared statements): with an application, `extra` is stored under its name ($3).
  const app = actor.app;
  return {
    name: app === undefined ? 'pfs_plain_entries' : 'pfs_plain_entries_app',
    types: app === undefined ? ['jsonb'] : ['jsonb', 'text'],
    values: app === undefined ? [JSON.stringify(rows)] : [JSON.stringify(rows), app],
    sql: (user, seq) => {
      const live = (table: string, id: string) =>
        `EXISTS (SELECT 1 FROM ${table} x WHERE x.id = ${id} AND x.user_id = ${user} AND NOT x.deleted)`;
      const value = (name: string) => (JSONB_COLUMNS.has(name) ? `r.${name}::jsonb` : `r.${name}`);
      const extra = app === undefined ? value('extra') : insertExtraSql(value('extra'), '$3');
      return `WITH r AS MATERIALIZED (
        SELECT nextval(pg_get_serial_sequence('entries', 'id')) AS id, r.*
        FROM jsonb_to_recordset($2)
          AS r(n int, account_currency text, snapshot jsonb, ${names.map((name) => `${name} ${ROW_TYPES[name]}`).join(', ')})
      ), ok AS (
        -- Each distinct reference once (a batch of 500 usually names one account and a few categories).
        SELECT NOT EXISTS (SELECT 1 FROM (SELECT DISTINCT account_id, account_currency FROM r) w
            WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = w.account_id AND a.user_id = ${user}
              AND NOT a.deleted AND a.currency = w.account_currency))
          AND NOT EXISTS (SELECT 1 FROM (SELECT DISTINCT category_id AS id FROM r) w
            WHERE w.id IS NOT NULL AND NOT ${live('categories', 'w.id')})
          AND NOT EXISTS (SELECT 1 FROM (SELECT DISTINCT unnest(tag_ids) AS id FROM r) w
            WHERE NOT ${live('tags', 'w.id')})
          AND NOT EXISTS (SELECT 1 FROM (SELECT DISTINCT unnest(image_ids) AS id FROM r) w
            WHERE NOT ${live('images', 'w.id')}) AS ok
      ), ins AS (
        INSERT INTO entries AS t (id, user_id, change_seq, modified_at, ${names.join(', ')})
        OVERRIDING SYSTEM VALUE
        SELECT r.id, ${user}, ${seq}, date_trunc('milliseconds', clock_timestamp()),
          ${names.map((name) => (name === 'extra' ? extra : value(name))).join(', ')}
        FROM r WHERE (SELECT ok FROM ok)
        RETURNING ${entriesTable.selectList}
      ), revisions AS (
        INSERT INTO resource_revisions (kind, object_id, modified_at, user_id, snapshot)
        SELECT 'entries', r.id, ins.modified_at, ${user},
          -- The snapshot as read back (toSnapshot of the row): amounts as stored, without trailing zeros.
          jsonb_set(r.snapshot || jsonb_build_object('amount', trim_scale(ins.amount)::text,
            'account_amount', trim_scale(ins.account_amount)::text),
            '{currency,rate}', to_jsonb(trim_scale(ins.rate)::text))
        FROM ins JOIN r ON r.id = ins.id::bigint
        ON CONFLICT DO NOTHING
      ), balances AS (
        UPDATE accounts a SET entries_total = a.entries_total + moved.total,
          entries_count = a.entries_count + moved.count, change_seq = ${seq}
        FROM (SELECT account_id, sum(account_amount) AS total, count(*)::int AS count FROM ins GROUP BY account_id) moved
        WHERE a.id = moved.account_id AND a.user_id = ${user}
      )
      SELECT ins.*, u.currency AS main_currency, u.custom_rates AS main_custom_rates
      FROM ins JOIN r ON r.id = ins.id::bigint CROSS JOIN users u WHERE u.id = ${user} ORDER BY r.n`;
    },
    read: (found) => {
      if (found.length !== writes.length) return undefined;
      return {
        entries: found.map((row) => entriesTable.recordOf(row, actor.app)),
        settings: {
          main: String(found[0].main_currency ?? 'EUR'),
          customRates: toCustomRates(found[0].main_custom_rates),
        },
      };
    },
  };
}
