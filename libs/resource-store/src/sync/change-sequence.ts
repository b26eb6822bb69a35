import type { DataSource, EntityManager } from 'typeorm';
import { type Actor, actorOf, type ChangeHooks, type UserChange, userChangeOf } from './user-change';
import { preparedQuery } from '../prepared-query';

/**
 * Claims the next change sequence number of a user, inside the caller's write transaction.
 *
 * Why a per-user counter row and not a global sequence or timestamps: the UPDATE holds the row lock until
 * the transaction ends, so a user's write transactions get their numbers in commit order. A list request
 * reads the counter in the same snapshot as the rows, so every row with a number at or below the counter
 * it reports is visible to it, and none above. A client syncing from that value can therefore never miss
 * a change that committed concurrently (a global sequence lets a lower number commit after a higher one).
 * Every row a transaction writes takes the same number.
 */
export async function claimChangeSeq(manager: EntityManager, userId: string): Promise<string> {
  const rows: Array<{ change_seq: string }> = await manager.query(
    `${claimChangeSeqSql('$1')} RETURNING change_seq::text AS change_seq`,
    [userId],
  );
  return rows[0].change_seq;
}

/** The claim of claimChangeSeq, for the user id given as SQL (a placeholder, or a literal: one-trip-change.ts). */
export function claimChangeSeqSql(user: string): string {
  return `INSERT INTO user_sync_state (user_id, change_seq, modified_at) VALUES (${user}, 1, clock_timestamp())
     ON CONFLICT (user_id) DO UPDATE
       SET change_seq = user_sync_state.change_seq + 1, modified_at = clock_timestamp()`;
}

/**
 * Runs `work` as one change of the user: a transaction that has claimed the user's next change sequence (and
 * so holds the user's write lock). Everything `work` writes through the change commits together or not at
 * all; the `onRollback` cleanups of the change run when it does not commit.
 */
export async function withUserChange<T>(
  source: DataSource,
  who: string | Actor,
  work: (change: UserChange) => Promise<T>,
): Promise<T> {
  const actor = actorOf(who);
  return inTransaction(source, async (manager, hooks) =>
    work(userChangeOf(manager, actor, await claimChangeSeq(manager, actor.userId), hooks)),
  );
}

/**
 * A transaction whose rollback (for any reason: `work` threw, or the commit itself failed) runs the cleanups
 * `work` registered, then rethrows; once it has committed, the work registered to follow the commit runs
 * before the result is returned. Store code builds changes on it (withUserChange, the idempotent POST).
 */
export async function inTransaction<T>(
  source: DataSource,
  work: (manager: EntityManager, hooks: ChangeHooks) => Promise<T>,
): Promise<T> {
  const hooks: ChangeHooks = { rollback: [], commit: [] };
  let result: T;
  try {
    result = await source.transaction((manager) => work(manager, hooks));
  } catch (error) {
    // A cleanup logs its own failure (it knows what it was removing); the caller sees the change's error.
    for (const cleanup of hooks.rollback) await cleanup().catch(() => undefined);
    throw error;
  }
  // Committed: a failure here must not turn a write that happened into an error (a retry would conflict).
  for (const follow of hooks.commit) await follow().catch(() => undefined);
  return result;
}

/** The user's current sync watermark (0 before any change). */
export async function readWatermark(source: DataSource | EntityManager, userId: string): Promise<string> {
  const rows: Array<{ change_seq: string }> = await source.query(
    `SELECT change_seq::text AS change_seq FROM user_sync_state WHERE user_id = $1`,
    [userId],
  );
  return rows[0]?.change_seq ?? '0';
}

/** A user's list version ('none' without a users row), with the main currency and stored custom rates. */
export interface RawListState {
  version: string;
  currency: string | undefined;
  customRates: unknown;
}

/**
 * The list version as SQL, over the users row `u` and the user's sync state row `s` (both left joined: no users
 * row gives NULL, read as 'none'). readListStates and a page statement asked for the state (list-page.ts) share it.
 */
export const LIST_VERSION_SQL = `coalesce(s.change_seq, 0)::text || ':' || (extract(epoch FROM u.modified_at) * 1000000)::bigint::text`;

/**
 * What every list representation of each user depends on, in one indexed read for all of them: the list version,
 * made of the change watermark (any write of the user's resources moves it) and the profile's `modified` (main
 * currency and custom rates, which presented amounts use, live on the users row and do not move the watermark),
 * so a stored page stamped with an equal version is still exact; and, from the same row, the main currency and
 * the stored custom rates a list presents with. One state per id, in the order given (list-state-loader.ts
 * gathers the ids of concurrent requests).
 */
export async function readListStates(
  source: DataSource | EntityManager,
  userIds: readonly string[],
): Promise<RawListState[]> {
  const rows = await preparedQuery<{ id: string; version: string; currency: string; custom_rates: unknown }>(
    source,
    `SELECT u.id::text AS id, ${LIST_VERSION_SQL} AS version, u.currency, u.custom_rates
     FROM users u LEFT JOIN user_sync_state s ON s.user_id = u.id WHERE u.id = ANY($1::bigint[])`,
    [userIds],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return userIds.map((userId) => {
    const row = byId.get(userId);
    return { version: row?.version ?? 'none', currency: row?.currency, customRates: row?.custom_rates };
  });
}
