import { compact, formatModified, formatTimestamp } from '@pfs/resource-api';
import type { NotificationRecord } from '@pfs/resource-store';

/** The reference's notification: id, type, action, text, date, modified (and deleted in syncs). */
export function presentNotification(record: NotificationRecord): Record<string, unknown> {
  return compact({
    id: record.id,
    type: record.type,
    action: record.action,
    text: record.text,
    date: formatTimestamp(record.date),
    export: record.exportId ?? undefined,
    modified: formatModified(record.modifiedAt),
    deleted: record.deleted || undefined,
  });
}
