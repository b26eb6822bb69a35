import { compact, formatModified } from '@pfs/resource-api';
import type { Tag } from '@pfs/resource-store';

export function presentTag(tag: Tag, counts?: Record<string, number>): Record<string, unknown> {
  return compact({
    id: tag.id,
    name: tag.name,
    type: tag.type,
    category: tag.categoryId,
    modified: formatModified(tag.modifiedAt),
    deleted: tag.deleted || undefined,
    counts,
    extra: tag.extra,
  });
}
