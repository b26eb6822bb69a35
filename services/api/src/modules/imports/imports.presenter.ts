import { compact, formatModified, formatTimestamp } from '@pfs/resource-api';
import type { ImportRecord } from '@pfs/resource-store';

const OPTION_FIELDS = {
  mapping: 'mapping',
  dateFormat: 'date_format',
  decimalSeparator: 'decimal_separator',
  delimiter: 'delimiter',
  encoding: 'encoding',
  tagSeparator: 'tag_separator',
} as const;

/** The Import representation (docs/imports.md): the request as sent, then the worker's progress. */
export function presentImport(record: ImportRecord): Record<string, unknown> {
  const options = Object.fromEntries(
    Object.entries(OPTION_FIELDS).map(([key, field]) => [
      field,
      record.options[key as keyof typeof OPTION_FIELDS],
    ]),
  );
  return compact({
    id: record.id,
    account: record.accountId,
    format: record.format ?? 'auto',
    dry_run: record.dryRun,
    ...options,
    filename: record.filename,
    filesize: record.filesize,
    status: record.status,
    rows_total: record.rowsTotal,
    rows_done: record.rowsDone,
    entries_created: record.createdCount,
    duplicates: record.duplicateCount,
    error: record.status === 'error' ? record.error : undefined,
    result: record.result ?? undefined,
    created: formatTimestamp(record.createdAt),
    modified: formatModified(record.modifiedAt),
    deleted: record.deleted || undefined,
  });
}
