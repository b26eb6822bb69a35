import { compact, formatModified, formatTimestamp } from '@pfs/resource-api';
import type { ExportRecord } from '@pfs/resource-store';

/**
 * The spec's Export: `data` (path, filename, filesize, valid_until) once the file exists and until it
 * expires; `error` is the reason a failed export gives the user.
 */
export function presentExport(record: ExportRecord): Record<string, unknown> {
  const hasFile = record.downloadUrl !== null && ['generated', 'sending', 'sent'].includes(record.status);
  return compact({
    id: record.id,
    type: record.type,
    resources: record.resources,
    formats: record.formats,
    filters: record.filters ?? undefined,
    from: record.from,
    to: record.to,
    created: formatTimestamp(record.createdAt),
    modified: formatModified(record.modifiedAt),
    status: record.status,
    error: record.status === 'error' ? record.errorReason : undefined,
    seen: record.seen,
    data: hasFile
      ? {
          path: record.downloadUrl,
          filename: record.filename,
          filesize: record.filesize,
          valid_until: record.validUntil ? formatTimestamp(record.validUntil) : undefined,
        }
      : undefined,
    deleted: record.deleted || undefined,
  });
}
