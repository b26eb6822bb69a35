import { compact, formatModified } from '@pfs/resource-api';
import type { Category } from '@pfs/resource-store';

export function presentCategory(
  category: Category,
  counts?: Record<string, number>,
): Record<string, unknown> {
  return compact({
    id: category.id,
    name: category.name,
    type: category.type,
    modified: formatModified(category.modifiedAt),
    deleted: category.deleted || undefined,
    counts,
    extra: category.extra,
  });
}
