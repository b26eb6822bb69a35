import { escapeLiteral } from 'pg';
import type { DataSource } from 'typeorm';
import { claimChangeSeqSql } from './change-sequence';
import type { RawRow } from './sync-types';

/**
 * A change of one user written as a single statement (a repository builds it: see entry-one-trip.ts). Its
 * values are SQL literals (`sqlLiteral`), not parameters: the whole change goes as one simple-protocol query.
 */
export interface OneTripStatement<T> {
  /** The statement, given the user id and the change sequence the change claimed, both as SQL expressions. */
  sql(user: string, changeSeq: string): string;
  /** The caller's result from the statement's rows. */
  read(rows: RawRow[]): T;
}

/** A string as an SQL literal (pg's escaping of quotes and backslashes), for a OneTripStatement. */
export function sqlLiteral(value: string): string {
  return escapeLiteral(value);
}

/** What runner.connect() gives on Postgres: pg's client, whose simple query answers one result a statement. */
interface SimpleQueryClient {
  query(text: string): Promise<Array<{ rows: RawRow[] }> | { rows: RawRow[] }>;
}

/**
 * Runs `statement` as a whole change of the user in ONE round trip: `BEGIN; <claim the change sequence>;
 * <statement>; COMMIT` sent as one simple query. Why: the user's change sequence row is the user's write lock
 * (change-sequence.ts), held from the claim to the commit; here it is held only while Postgres runs the
 * statement and commits, never across a network round trip or the API's own work, and the change costs one
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
    const seq = `(SELECT change_seq FROM user_sync_state WHERE user_id = ${user})`;
    let results: Array<{ rows: RawRow[] }>;
    try {
      const answer = await client.query(
        `BEGIN; ${claimChangeSeqSql(user)}; ${statement.sql(user, seq)}; COMMIT`,
      );
      results = Array.isArray(answer) ? answer : [answer];
    } catch (error) {
      // A failed statement leaves the transaction aborted: end it before the connection goes back to the pool.
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    return statement.read(results[2].rows);
  } finally {
    await runner.release();
  }
}
