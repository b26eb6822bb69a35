import type { ExportFilters, ExportStatus, ExportType } from '@pfs/contracts';
import { RawRow, ResourceTable, SyncedRecord } from '../sync/resource-table';

/** An export as plain data: its definition, its progress, and once generated its stored file. */
export interface ExportRecord extends SyncedRecord {
  userId: string;
  type: ExportType;
  resources: string[];
  formats: string[];
  filters: ExportFilters | null;
  from: string | null;
  to: string | null;
  status: ExportStatus;
  errorReason: string | null;
  seen: boolean;
  storageKey: string | null;
  filename: string | null;
  filesize: number | null;
  contentType: string | null;
  downloadUrl: string | null;
  validUntil: Date | null;
  generatedAt: Date | null;
  expiresAt: Date | null;
  attempts: number;
  /**
   * The primary's WAL position when the export was requested (pg_lsn text): its rows are read from a replica
   * only once it has replayed that far. Null for exports requested before the column existed.
   */
  walPosition: string | null;
}

export interface NewExport {
  type: ExportType;
  resources: string[];
  formats: string[];
  filters: ExportFilters | null;
  from: string | null;
  to: string | null;
}

/** The fields a status move may set alongside the status. */
export type ExportProgress = Partial<
  Pick<
    ExportRecord,
    | 'errorReason'
    | 'storageKey'
    | 'filename'
    | 'filesize'
    | 'contentType'
    | 'downloadUrl'
    | 'validUntil'
    | 'generatedAt'
    | 'expiresAt'
  >
>;

const COLUMNS = [
  'user_id',
  'type',
  'resources',
  'formats',
  'filters',
  'from_date',
  'to_date',
  'status',
  'error_reason',
  'seen',
  'storage_key',
  'filename',
  'filesize',
  'content_type',
  'download_url',
  'valid_until',
  'generated_at',
  'expires_at',
  'attempts',
  'wal_position',
] as const;

export const PROGRESS_COLUMNS: Record<keyof ExportProgress, string> = {
  errorReason: 'error_reason',
  storageKey: 'storage_key',
  filename: 'filename',
  filesize: 'filesize',
  contentType: 'content_type',
  downloadUrl: 'download_url',
  validUntil: 'valid_until',
  generatedAt: 'generated_at',
  expiresAt: 'expires_at',
};

const dateText = (value: unknown): string | null =>
  value === null || value === undefined
    ? null
    : value instanceof Date
      ? value.toISOString().slice(0, 10)
      : String(value);

function toRecord(row: RawRow): ExportRecord {
  return ResourceTable.withCommonFields(row, {
    userId: String(row.user_id),
    type: row.type as ExportType,
    resources: (row.resources as string[]) ?? [],
    formats: (row.formats as string[]) ?? [],
    filters: (row.filters as ExportFilters | null) ?? null,
    from: dateText(row.from_date),
    to: dateText(row.to_date),
    status: row.status as ExportStatus,
    errorReason: (row.error_reason as string | null) ?? null,
    seen: Boolean(row.seen),
    storageKey: (row.storage_key as string | null) ?? null,
    filename: (row.filename as string | null) ?? null,
    filesize: row.filesize === null || row.filesize === undefined ? null : Number(row.filesize),
    contentType: (row.content_type as string | null) ?? null,
    downloadUrl: (row.download_url as string | null) ?? null,
    validUntil: (row.valid_until as Date | null) ?? null,
    generatedAt: (row.generated_at as Date | null) ?? null,
    expiresAt: (row.expires_at as Date | null) ?? null,
    attempts: Number(row.attempts ?? 0),
    walPosition: (row.wal_position as string | null) ?? null,
  });
}

/** The exports table on the shared ResourceTable (list, find, guarded update, revisions). */
export const exportsTable = new ResourceTable<ExportRecord>({
  table: 'exports',
  kind: 'exports',
  columns: COLUMNS,
  toRecord,
  // The writable fields in API shape: all fixed at creation except `seen`, the one a PUT changes.
  toSnapshot: (record) => ({
    type: record.type,
    resources: record.resources,
    formats: record.formats,
    filters: record.filters ?? undefined,
    from: record.from ?? undefined,
    to: record.to ?? undefined,
    seen: record.seen,
  }),
  toColumns: (snapshot) => ({ seen: snapshot.seen === true }),
});
