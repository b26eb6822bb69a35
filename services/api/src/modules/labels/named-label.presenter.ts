import { compact, formatModified } from '@pfs/resource-api';
import type { SyncedRecord } from '@pfs/resource-store';
import type { LabelCounts } from './named-label';

/**
 * The representation of a named label: name and type, what the resource adds after the type (a tag's
 * category), then the fields every label has, in the published order; empty values are left out.
 */
export function presentLabel(
  label: SyncedRecord & { name: string; type: string },
  counts?: LabelCounts,
  afterType: Record<string, unknown> = {},
): Record<string, unknown> {
  return compact({
    id: label.id,
    name: label.name,
    type: label.type,
    ...afterType,
    modified: formatModified(label.modifiedAt),
    deleted: label.deleted || undefined,
    counts,
    extra: label.extra,
  });
}
