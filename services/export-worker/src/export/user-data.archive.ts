import type { Writable } from 'node:stream';
import { once } from 'node:events';
import type { DataSource } from 'typeorm';
import { streamRows } from './row-cursor';

export const USER_DATA_FORMAT = 'pfs.user_data';
export const USER_DATA_VERSION = 1;

/**
 * Tables never exported: credentials and OAuth state (secrets), device push tokens, internal sync
 * bookkeeping, and the exports themselves (their links unlock files). Everything else holding a
 * `user_id` is the user's data and is exported, including tables added after this was written.
 */
const EXCLUDED = [
  /^auth_/,
  /^oauth_/,
  /^push_/,
  /^idempotency_keys$/,
  /^user_sync_state$/,
  /^resource_revisions$/,
  /^exports$/,
];

/** Columns never exported from any table. */
const SECRET_COLUMN = /(password|secret|hash|token)/i;

async function userTables(source: DataSource): Promise<Array<{ table: string; columns: string[] }>> {
  const rows: Array<{ table_name: string; columns: string[] }> = await source.query(
    `SELECT c.table_name, array_agg(c.column_name::text ORDER BY c.ordinal_position) AS columns
     FROM information_schema.columns c JOIN information_schema.tables t
       ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
     WHERE c.table_schema = current_schema()
     GROUP BY c.table_name HAVING bool_or(c.column_name = 'user_id') ORDER BY c.table_name`,
  );
  return rows
    .filter((row) => !EXCLUDED.some((pattern) => pattern.test(row.table_name)))
    .map((row) => ({
      table: row.table_name,
      columns: row.columns.filter((column) => !SECRET_COLUMN.test(column)),
    }));
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

/**
 * Streams every piece of a user's data as one JSON document (docs/exports.md, "user_data"):
 * `{format, version, exported_at, user, tables: {<table>: [rows…]}}`, rows as Postgres's row_to_json
 * gives them (numerics as exact numbers, timestamps ISO 8601). One table is read at a time, by cursor.
 */
export async function writeUserDataArchive(source: DataSource, userId: string, out: Writable): Promise<void> {
  const users: Array<{ user: Record<string, unknown> }> = await source.query(
    `SELECT row_to_json(u) AS user FROM users u WHERE u.id = $1`,
    [userId],
  );
  const header = {
    format: USER_DATA_FORMAT,
    version: USER_DATA_VERSION,
    exported_at: new Date().toISOString(),
    user: users[0]?.user ?? null,
  };
  await write(out, `${JSON.stringify(header).slice(0, -1)},"tables":{`);
  const tables = await userTables(source);
  for (const [index, { table, columns }] of tables.entries()) {
    await write(out, `${index ? ',' : ''}${JSON.stringify(table)}:[`);
    const select = columns.map(quoteIdent).join(', ');
    const order = columns.includes('id') ? 'ORDER BY id' : '';
    const sql = `SELECT row_to_json(r)::text AS json FROM (SELECT ${select} FROM ${quoteIdent(table)} WHERE user_id = $1 ${order}) r`;
    let first = true;
    for await (const row of streamRows(source, sql, [userId])) {
      await write(out, `${first ? '' : ','}${row.json as string}`);
      first = false;
    }
    await write(out, ']');
  }
  out.end('}}');
  await once(out, 'finish');
}
