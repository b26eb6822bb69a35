import type { RateSource } from '@pfs/money';
import type { Account, ImportRecord } from '@pfs/resource-store';
import { openStatementRows } from '../imports/open-rows';
import type { ParsedRow } from '../imports/parsed-row';
import { RowKeys, rowValues, RowValues } from '../imports/row-values';
import { IMPORT_BATCH_ROWS, type ImportDependencies } from './import-dependencies';

/** At most this many duplicates (and dry-run rows) are listed in `result`; the counts are complete. */
export const LISTED_DUPLICATES = 1000;
export const LISTED_ROWS = 100;

/** Streams the stored statement of an import, in its format (given or detected). */
export async function openImportRows(deps: ImportDependencies, record: ImportRecord) {
  const { body } = await deps.storage.read(record.storageKey!);
  return openStatementRows(body, record.format, record.options);
}

/**
 * Reads the statement through once, in batches of checked rows (every rule an entry must meet): the rates
 * are loaded only when a row is in another currency than the account's.
 */
export async function* checkedBatches(
  deps: ImportDependencies,
  rows: AsyncIterable<ParsedRow>,
  account: Account,
): AsyncGenerator<RowValues[]> {
  let rates: RateSource | undefined;
  let batch: RowValues[] = [];
  for await (const row of rows) {
    if (row.currency && row.currency !== account.currency) rates ??= await deps.rates();
    batch.push(rowValues(row, account, rates));
    if (batch.length === IMPORT_BATCH_ROWS) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** A row as a dry run shows it. */
export function presentRow(values: RowValues): Record<string, unknown> {
  const { row } = values;
  return {
    line: row.line,
    date: row.date,
    amount: row.amount,
    currency: values.currency,
    ...(row.description ? { description: row.description } : {}),
    ...(row.category ? { category: row.category } : {}),
    ...(row.tags.length ? { tags: row.tags } : {}),
    ...(row.fitid ? { fitid: row.fitid } : {}),
  };
}

export { RowKeys };
