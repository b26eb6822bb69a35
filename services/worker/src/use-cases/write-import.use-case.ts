import type { Account, ImportRecord } from '@pfs/resource-store';
import { ImportFailure, type ImportDependencies } from './import-dependencies';
import { ImportLabels } from './import-labels';
import { checkedBatches, LISTED_DUPLICATES, openImportRows, RowKeys } from './import-passes';
import { keyBatch, KeyedRow, writeBatch } from './import-rows';

/** The record's result after a batch: labels created so far, duplicates listed (up to the cap). */
function nextResult(
  record: ImportRecord,
  created: { categories: string[]; tags: string[] },
  rows: KeyedRow[],
) {
  const previous = (record.result ?? {}) as {
    categories_created?: string[];
    tags_created?: string[];
    duplicates?: unknown[];
  };
  const duplicates = [
    ...(previous.duplicates ?? []),
    ...rows
      .filter((row) => row.duplicate)
      .map((row) => ({ line: row.values.row.line, reason: row.duplicate })),
  ].slice(0, LISTED_DUPLICATES);
  return {
    ...previous,
    categories_created: [...(previous.categories_created ?? []), ...created.categories],
    tags_created: [...(previous.tags_created ?? []), ...created.tags],
    duplicates,
  };
}

/**
 * The importing pass: the statement read again, batch by batch, each batch one change that writes its new
 * entries, the labels they need, the keys, and the progress (rows_done), so a run that stops resumes after
 * the last committed batch (the rows before it are only re-keyed, never rewritten). Rows are compared with
 * the entries that existed when importing began (`startedAt`), not with the ones this import wrote.
 */
export async function importRowsBatches(
  deps: ImportDependencies,
  record: ImportRecord,
  account: Account,
): Promise<ImportRecord> {
  const statement = await openImportRows(deps, record);
  const keys = new RowKeys();
  const labels = new ImportLabels(deps);
  const before = record.startedAt ?? new Date();
  let current = record;
  let seen = 0;
  for await (const batch of checkedBatches(deps, statement.rows, account)) {
    const skip = Math.max(0, Math.min(batch.length, record.rowsDone - seen));
    seen += batch.length;
    for (const values of batch.slice(0, skip)) keys.keyOf(values.row);
    const fresh = batch.slice(skip);
    if (!fresh.length) continue;
    current = await deps.repos.store.change(record.userId, async (change) => {
      const [locked] = await deps.repos.accounts.lockAccounts(change, [account.id]);
      if (!locked) throw new ImportFailure({ field: 'account', reason: 'was deleted during the import' });
      const keyed = await keyBatch(deps, change, current, fresh, keys, before);
      const createdBefore = {
        categories: labels.created.categories.length,
        tags: labels.created.tags.length,
      };
      const created = await writeBatch(deps, change, locked, current, keyed, labels);
      const moved = await deps.repos.imports.advance(change, record.id, ['importing'], 'importing', {
        rowsDone: current.rowsDone + fresh.length,
        createdCount: current.createdCount + created,
        duplicateCount: current.duplicateCount + (fresh.length - created),
        result: nextResult(
          current,
          {
            categories: labels.created.categories.slice(createdBefore.categories),
            tags: labels.created.tags.slice(createdBefore.tags),
          },
          keyed,
        ),
      });
      if (!moved) throw new Error(`import ${record.id} was moved by another process`);
      return moved;
    });
  }
  return current;
}
