import type { Account, EntrySnapshot, ImportRecord, UserChange, UserRead } from '@pfs/resource-store';
import { Decimal } from '@pfs/money';
import { fingerprintOf, RowKeys, RowValues } from '../imports/row-values';
import type { ImportDependencies } from './import-dependencies';
import type { ImportLabels } from './import-labels';

/** A row of a batch with its duplicate key, and why it is a duplicate (when it is). */
export interface KeyedRow {
  values: RowValues;
  key: string;
  duplicate?: string;
}

/**
 * Marks the duplicates of a batch: a FITID repeated in the file, a key an earlier import of the account
 * wrote (same FITID, or the same fingerprint and occurrence), or, for rows without a FITID, a live entry
 * of the account written before this import began with the same date, amount and description (the n-th
 * such row of the file is a duplicate while the account held at least n such entries).
 */
export async function keyBatch(
  deps: ImportDependencies,
  read: UserRead,
  record: ImportRecord,
  batch: RowValues[],
  keys: RowKeys,
  before: Date,
): Promise<KeyedRow[]> {
  const keyed = batch.map((values) => ({ values, ...keys.keyOf(values.row) }));
  const known = await deps.repos.imports.findExistingKeys(
    read,
    record.accountId,
    keyed.map((row) => row.key),
  );
  const present = new Map<string, number>();
  const fingerprinted = keyed.filter((row) => row.fingerprint);
  const dates = [...new Set(fingerprinted.map((row) => row.values.row.date))];
  for (const entry of await deps.repos.imports.entriesOn(read, record.accountId, dates, before)) {
    const fingerprint = fingerprintOf(entry.date, entry.amount, entry.description);
    present.set(fingerprint, (present.get(fingerprint) ?? 0) + 1);
  }
  return keyed.map(({ values, key, fingerprint, occurrence }) => {
    let duplicate: string | undefined;
    if (values.row.fitid && occurrence > 0) duplicate = `FITID ${values.row.fitid} repeats an earlier row`;
    else if (known.has(key))
      duplicate = values.row.fitid
        ? `FITID ${values.row.fitid} was imported before`
        : 'the same transaction was imported before';
    else if (fingerprint && occurrence < (present.get(fingerprint) ?? 0))
      duplicate = 'an entry with this date, amount and description is already in the account';
    return { values, key, duplicate };
  });
}

/** The entry a row becomes, in the shape every entry write stores (EntryWriter's snapshot). */
function snapshotOf(
  account: Account,
  values: RowValues,
  labels: { category?: string; tags: string[] },
): EntrySnapshot {
  const { row } = values;
  return {
    amount: row.amount,
    currency: { code: values.currency, rate: values.rate, fixed: false },
    date: row.date,
    ...(row.description ? { desc: row.description } : {}),
    account: account.id,
    ...(labels.category ? { category: labels.category } : {}),
    ...(labels.tags.length ? { tags: labels.tags } : {}),
    completed: true,
    account_amount: values.accountAmount,
  };
}

/**
 * Writes the new rows of a batch in the caller's change, as POST /entries writes entries: each through the
 * entries table (its revision, the change's sequence), the account's total and count moved once for the
 * batch, and the keys remembered for the next import. Returns how many entries were created.
 */
export async function writeBatch(
  deps: ImportDependencies,
  change: UserChange,
  account: Account,
  record: ImportRecord,
  rows: KeyedRow[],
  labels: ImportLabels,
): Promise<number> {
  await labels.lookUp(
    change,
    rows.map((row) => row.values),
  );
  const fresh = rows.filter((row) => !row.duplicate);
  const snapshots: EntrySnapshot[] = [];
  for (const row of fresh) {
    snapshots.push(snapshotOf(account, row.values, await labels.idsOf(row.values, change)));
  }
  // One INSERT and one revision INSERT for the batch: the same rows and revisions as one insert per entry.
  const entries = await deps.repos.entries.table.insertMany(change, snapshots);
  let total = new Decimal(0);
  for (const entry of entries) total = total.plus(entry.accountAmount);
  if (entries.length) {
    await deps.repos.accounts.addToEntriesTotal(change, account.id, total.toFixed(), entries.length);
  }
  await deps.repos.imports.recordKeys(
    change,
    account.id,
    record.id,
    entries.map((entry, index) => ({ key: fresh[index].key, entryId: entry.id })),
  );
  return entries.length;
}
