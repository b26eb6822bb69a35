import type { ImportFormat, ImportOptions, ImportStatus } from '@pfs/contracts';
import { RawRow, ResourceTable, SyncedRecord } from '../sync/resource-table';

/** Where a bad file broke: the 1-based line (or record), the field, and the rule, for the user. */
export interface ImportError {
  line?: number;
  field?: string;
  reason: string;
}

/** An import as plain data: its request, its stored file, and the worker's progress. */
export interface ImportRecord extends SyncedRecord {
  userId: string;
  accountId: string;
  /** The format asked for, or detected once parsing began (null until then when detection was asked). */
  format: ImportFormat | null;
  options: ImportOptions;
  dryRun: boolean;
  filename: string | null;
  filesize: number;
  storageKey: string | null;
  status: ImportStatus;
  rowsTotal: number | null;
  rowsDone: number;
  createdCount: number;
  duplicateCount: number;
  error: ImportError | null;
  /** What the import did or, for a dry run, would do (docs/imports.md). */
  result: Record<string, unknown> | null;
  /** When importing began: entries written before it are the ones an import's rows may duplicate. */
  startedAt: Date | null;
  attempts: number;
}

export interface NewImport {
  accountId: string;
  format: ImportFormat | null;
  options: ImportOptions;
  dryRun: boolean;
  filename: string | null;
  filesize: number;
  storageKey: string;
}

/** The fields a status move may set alongside the status. */
export type ImportProgress = Partial<
  Pick<
    ImportRecord,
    | 'format'
    | 'rowsTotal'
    | 'rowsDone'
    | 'createdCount'
    | 'duplicateCount'
    | 'error'
    | 'result'
    | 'startedAt'
    | 'storageKey'
  >
>;

export const IMPORT_PROGRESS_COLUMNS: Record<keyof ImportProgress, string> = {
  format: 'format',
  rowsTotal: 'rows_total',
  rowsDone: 'rows_done',
  createdCount: 'created_count',
  duplicateCount: 'duplicate_count',
  error: 'error',
  result: 'result',
  startedAt: 'started_at',
  storageKey: 'storage_key',
};

/** JSON columns are sent as text (pg would write a JS array as a Postgres array). */
export const JSON_PROGRESS: ReadonlySet<string> = new Set(['error', 'result']);

const COLUMNS = [
  'user_id',
  'account_id',
  'format',
  'options',
  'dry_run',
  'filename',
  'filesize',
  'storage_key',
  'status',
  'rows_total',
  'rows_done',
  'created_count',
  'duplicate_count',
  'error',
  'result',
  'started_at',
  'attempts',
] as const;

const optionalNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));

function toRecord(row: RawRow): ImportRecord {
  return ResourceTable.withCommonFields(row, {
    userId: String(row.user_id),
    accountId: String(row.account_id),
    format: (row.format as ImportFormat | null) ?? null,
    options: (row.options as ImportOptions | null) ?? {},
    dryRun: Boolean(row.dry_run),
    filename: (row.filename as string | null) ?? null,
    filesize: Number(row.filesize ?? 0),
    storageKey: (row.storage_key as string | null) ?? null,
    status: row.status as ImportStatus,
    rowsTotal: optionalNumber(row.rows_total),
    rowsDone: Number(row.rows_done ?? 0),
    createdCount: Number(row.created_count ?? 0),
    duplicateCount: Number(row.duplicate_count ?? 0),
    error: (row.error as ImportError | null) ?? null,
    result: (row.result as Record<string, unknown> | null) ?? null,
    startedAt: (row.started_at as Date | null) ?? null,
    attempts: Number(row.attempts ?? 0),
  });
}

/** The imports table on the shared ResourceTable (lists, `since`, find). Clients never write an import. */
export const importsTable = new ResourceTable<ImportRecord>({
  table: 'imports',
  kind: 'imports',
  columns: COLUMNS,
  toRecord,
  toSnapshot: (record) => ({
    account: record.accountId,
    format: record.format ?? undefined,
    dry_run: record.dryRun,
    filename: record.filename ?? undefined,
  }),
  toColumns: () => ({}),
});
