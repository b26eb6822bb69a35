import type { ImportStatus } from '@pfs/contracts';
import type { Account, ImportError, ImportRecord } from '@pfs/resource-store';
import { ImportFileError } from '../imports/parsed-row';
import { completeImport } from './complete-import.use-case';
import { ImportFailure, removeFile, type ImportDependencies } from './import-dependencies';
import { ImportLabels } from './import-labels';
import {
  checkedBatches,
  LISTED_DUPLICATES,
  LISTED_ROWS,
  openImportRows,
  presentRow,
  RowKeys,
} from './import-passes';
import { keyBatch } from './import-rows';
import { importRowsBatches } from './write-import.use-case';

export const UNFINISHED_IMPORT_STATUSES: readonly ImportStatus[] = [
  'uploaded',
  'parsing',
  'parsed',
  'importing',
];

/** Finished: imported, error, or a dry run's plan. */
export const isFinished = (record: ImportRecord) =>
  record.status === 'imported' || record.status === 'error' || (record.status === 'parsed' && record.dryRun);

const advance = (
  deps: ImportDependencies,
  record: ImportRecord,
  from: ImportStatus[],
  to: ImportStatus,
  progress = {},
) =>
  deps.repos.store.change(record.userId, (change) =>
    deps.repos.imports.advance(change, record.id, from, to, progress),
  );

/** The import's account, as a read (the batches lock it again in their changes). */
async function accountOf(deps: ImportDependencies, record: ImportRecord): Promise<Account> {
  const account = await deps.repos.accounts.table.findById(
    deps.repos.store.read(record.userId),
    record.accountId,
  );
  if (!account) throw new ImportFailure({ field: 'account', reason: 'is no longer one of your accounts' });
  return account;
}

/**
 * Runs an import from its stored state: uploaded/parsing → parse the whole file (every row checked, nothing
 * written) → parsed (a dry run ends here with its plan) → importing, batch by batch, each batch committed
 * with its progress → imported. A worker that restarts re-reads the status and resumes there (importing
 * resumes after the last committed batch). A bad file ends in error with the line, field and reason.
 */
export async function runImport(
  deps: ImportDependencies,
  userId: string,
  importId: string,
): Promise<ImportRecord | undefined> {
  let record = await deps.repos.imports.findById(deps.repos.store.read(userId), importId);
  if (!record || isFinished(record)) return record;
  try {
    if (record.status === 'uploaded' || record.status === 'parsing') {
      record = (await advance(deps, record, ['uploaded', 'parsing'], 'parsing')) ?? record;
      record = await parseImport(deps, record);
      if (record.dryRun) return record;
    }
    if (record.status === 'parsed') {
      record = (await advance(deps, record, ['parsed'], 'importing', { startedAt: new Date() })) ?? record;
    }
    if (record.status !== 'importing') return record;
    await importRowsBatches(deps, record, await accountOf(deps, record));
    return await completeImport(deps, record);
  } catch (error) {
    const detail = failureDetail(error);
    if (!detail) throw error;
    return failImport(deps, record, detail);
  }
}

function failureDetail(error: unknown): ImportError | undefined {
  if (error instanceof ImportFileError) {
    return {
      ...(error.line ? { line: error.line } : {}),
      ...(error.field ? { field: error.field } : {}),
      reason: error.reason,
    };
  }
  if (error instanceof ImportFailure) return error.detail;
  return undefined;
}

/**
 * The parsing pass: reads every row and checks it, so a bad file fails before any entry is written. A dry
 * run also plans each batch: the duplicates, and the categories and tags that would be created.
 */
async function parseImport(deps: ImportDependencies, record: ImportRecord): Promise<ImportRecord> {
  const account = await accountOf(deps, record);
  const statement = await openImportRows(deps, record);
  const read = deps.repos.store.read(record.userId);
  const keys = new RowKeys();
  const labels = new ImportLabels(deps);
  const rows: unknown[] = [];
  const duplicates: unknown[] = [];
  let total = 0;
  let duplicateCount = 0;
  const now = new Date();
  for await (const batch of checkedBatches(deps, statement.rows, account)) {
    total += batch.length;
    if (!record.dryRun) continue;
    for (const values of batch) if (rows.length < LISTED_ROWS) rows.push(presentRow(values));
    await labels.lookUp(read, batch);
    for (const row of await keyBatch(deps, read, record, batch, keys, now)) {
      if (row.duplicate) {
        duplicateCount += 1;
        if (duplicates.length < LISTED_DUPLICATES)
          duplicates.push({ line: row.values.row.line, reason: row.duplicate });
      } else await labels.idsOf(row.values);
    }
  }
  const result = record.dryRun
    ? {
        encoding: statement.encoding,
        rows,
        new_rows: total - duplicateCount,
        would_create: { accounts: [], categories: labels.created.categories, tags: labels.created.tags },
        duplicates,
      }
    : { encoding: statement.encoding };
  const parsed = await advance(deps, record, ['parsing'], 'parsed', {
    format: statement.format,
    rowsTotal: total,
    duplicateCount,
    result,
  });
  if (!parsed) return (await deps.repos.imports.findById(read, record.id)) ?? record;
  if (parsed.dryRun) await removeFile(deps, parsed);
  return parsed;
}

/** Ends an unfinished import in error (a bad file, a last failed attempt), and removes its file. */
export async function failImport(
  deps: ImportDependencies,
  record: ImportRecord,
  detail: ImportError,
): Promise<ImportRecord | undefined> {
  const failed = await deps.repos.store.change(record.userId, (change) =>
    deps.repos.imports.advance(change, record.id, UNFINISHED_IMPORT_STATUSES, 'error', { error: detail }),
  );
  if (failed) await removeFile(deps, failed);
  return failed;
}
