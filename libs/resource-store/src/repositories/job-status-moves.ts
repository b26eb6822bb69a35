import { handleOf, transactionOf, type UserChange, type UserRead } from '../sync/user-change';
import { returnedRows, type ResourceTable, type SyncedRecord } from '../sync/resource-table';

/**
 * Moves the status of one row of `table` (exports, imports: the records a worker carries through states)
 * from one of `from` to `to`, setting `columns` too, in the caller's change, and records the revision a
 * client may hold. Returns the new record, or undefined when the row is no longer in a `from` state
 * (another process moved it).
 */
export async function moveStatus<T extends SyncedRecord>(
  table: ResourceTable<T>,
  change: UserChange,
  id: string,
  move: { from: readonly string[]; to: string; columns: Array<[column: string, value: unknown]> },
): Promise<T | undefined> {
  const values: unknown[] = [change.userId, id, move.from, move.to, change.changeSeq];
  const sets = move.columns.map(([column, value]) => {
    values.push(value);
    return `, ${column} = $${values.length}`;
  });
  const rows = await transactionOf(change).query(
    `UPDATE ${table.options.table} t SET status = $4, change_seq = $5${sets.join('')},
       modified_at = GREATEST(date_trunc('milliseconds', clock_timestamp()), t.modified_at + interval '1 millisecond')
     WHERE t.user_id = $1 AND t.id = $2 AND t.status = ANY($3) AND NOT t.deleted
     RETURNING t.id`,
    values,
  );
  if (!returnedRows(rows)[0]) return undefined;
  // Each status move is a revision a client may hold; a later PUT based on it must merge.
  await table.recordRevisions(change, [id]);
  return table.findById(change, id);
}

/** Counts a processing attempt of one row of `table` (not a change clients see: no change sequence). */
export async function countAttempt<T extends SyncedRecord>(
  table: ResourceTable<T>,
  read: UserRead,
  id: string,
): Promise<void> {
  await handleOf(read).query(
    `UPDATE ${table.options.table} SET attempts = attempts + 1 WHERE user_id = $1 AND id = $2`,
    [read.userId, id],
  );
}
