import { escapeLiteral } from 'pg';
import type { DataSource } from 'typeorm';
import { claimChangeSeqSql } from './change-sequence';
import { statementName } from '../prepared-query';
import type { RawRow } from './sync-types';

/**
 * A change of one user written as a single prepared statement (a repository builds it: see
 * entry-one-trip.ts). Its text is fixed (the same for every change of its kind): `$1` is the user id and the
 * statement's own values are the parameters after it, so Postgres plans it once per connection instead of at
 * every change (planning the statement was most of its cost).
 */
export interface OneTripStatement<T> {
  /** The prepared statement's name: one per distinct text. */
  name: string;
  /** The SQL types of the parameters after the user id (`$2`, `$3`, …). */
  types: string[];
  /** The statement, given the user id (`$1`) and the change sequence the change claimed, as SQL expressions. */
  sql(user: string, changeSeq: string): string;
  /** The values of the parameters after the user id, in order (sent as SQL literals). */
  values: string[];
  /** The caller's result from the statement's rows. */
  read(rows: RawRow[]): T;
}

/** A string as an SQL literal (pg's escaping of quotes and backslashes). */
export function sqlLiteral(value: string): string {
  return escapeLiteral(value);
}

/** What runner.connect() gives on Postgres: pg's client, whose simple query answers one result a statement. */
interface SimpleQueryClient {
  query(text: string): Promise<Array<{ rows: RawRow[] }> | { rows: RawRow[] }>;
}

/** Postgres's codes for a prepared statement missing on the connection / whose plan changed its row type. */
const REPREPARE_CODES = new Set(['26000', '0A000']);

/** Each statement kind's text and the name it is prepared under (its text is fixed: made once a process). */
const prepared = new Map<string, { text: string; name: string }>();

/** A statement's text and prepared name: its kind and a hash of its text (two API versions never share one). */
function preparedOf(statement: OneTripStatement<unknown>): { text: string; name: string } {
  let found = prepared.get(statement.name);
  if (!found) {
    const text = statement.sql('$1', '(SELECT change_seq FROM user_sync_state WHERE user_id = $1)');
    found = { text, name: statementName(statement.name, text) };
    prepared.set(statement.name, found);
  }
  return found;
}

/**
 * A DO block that (re)prepares the statement on whatever server connection runs it. Why a block sent with
 * the change and not a PREPARE the client remembers: through PgBouncer in transaction mode (docs/scaling.md)
 * each transaction may run on another server connection, so only the server knows what it has prepared.
 */
function prepareSql(name: string, types: string[], text: string): string {
  const prepare = `PREPARE ${name}(${types.join(', ')}) AS ${text}`;
  return `DO $prepare$ BEGIN
    IF EXISTS (SELECT FROM pg_prepared_statements WHERE name = ${sqlLiteral(name)}) THEN EXECUTE 'DEALLOCATE ${name}'; END IF;
    EXECUTE ${sqlLiteral(prepare)};
  END $prepare$`;
}

/**
 * Runs `statement` as a whole change of the user in ONE round trip: `BEGIN; <claim the change sequence>;
 * EXECUTE <statement>; COMMIT` sent as one simple query. Why: the user's change sequence row is the user's
 * write lock (change-sequence.ts), held from the claim to the commit; here it is held only while Postgres runs
 * the statement and commits, never across a network round trip or the API's own work, and the change costs one
 * socket write instead of one a statement (on a loaded machine each write wakes a backend: most of a write's
 * CPU). Each statement of the query takes its own snapshot (READ COMMITTED), so the statement sees every change
 * committed before the claim returned, as a statement of withUserChange does. An error rolls everything back.
 */
export async function runOneTripChange<T>(
  source: DataSource,
  userId: string,
  statement: OneTripStatement<T>,
): Promise<T> {
  const runner = source.createQueryRunner('master');
  try {
    const client = (await runner.connect()) as SimpleQueryClient;
    const user = sqlLiteral(userId);
    const { text, name } = preparedOf(statement);
    const change = `BEGIN; ${claimChangeSeqSql(user)}; EXECUTE ${name}(${[user, ...statement.values.map(sqlLiteral)].join(', ')}); COMMIT`;
    const run = async (query: string): Promise<Array<{ rows: RawRow[] }>> => {
      try {
        const answer = await client.query(query);
        return Array.isArray(answer) ? answer : [answer];
      } catch (error) {
        // A failed statement leaves the transaction aborted: end it before the connection goes back to the pool.
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    };
    let results: Array<{ rows: RawRow[] }>;
    try {
      results = await run(change);
    } catch (error) {
      // Not prepared on this server connection yet (or its plan went stale): prepare it, with the change.
      if (!REPREPARE_CODES.has(String((error as { code?: string }).code))) throw error;
      results = await run(`${prepareSql(name, ['bigint', ...statement.types], text)}; ${change}`);
    }
    // The EXECUTE's rows: the result before COMMIT's.
    return statement.read(results[results.length - 2].rows);
  } finally {
    await runner.release();
  }
}
