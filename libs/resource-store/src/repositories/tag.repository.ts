import { isResourceId } from '@pfs/contracts';
import type { UserChange } from '../sync/user-change';
import type { SqlFilter } from '../sync/sql-params';
import { tagReferenceHooks, tagToCategoryHooks } from './reference-hooks';
import { Tag, tagsTable } from './tags-table';
import { labelFilters, type LabelFilters, NamedLabelRepository } from './named-label.repository';
import { tagUsageCounters } from './usage-counts';

export interface TagFilters extends LabelFilters {
  /** Category ids; an empty list means "tags with no category". */
  categories?: string[];
  /** Tags that appear on live entries together with any of these tags (these tags themselves excluded)… */
  usedWithTags?: string[];
  /** …on at least this many entries (default 1). */
  usedWithTagsMin?: number;
  /** Tags that appear on live entries of any of these categories. */
  usedWithCategories?: string[];
}

export const TAG_COUNT_KEYS = ['entries', 'unsorted_entries', 'budgets'] as const;

const validIds = (ids: string[]) => ids.filter(isResourceId);

function filtersOf(filters: TagFilters): SqlFilter[] {
  const out = labelFilters(filters);
  if (filters.categories) {
    out.push((p) =>
      filters.categories!.length
        ? `t.category_id = ANY(${p(validIds(filters.categories!))}::bigint[])`
        : 't.category_id IS NULL',
    );
  }
  if (filters.usedWithTags) {
    const given = validIds(filters.usedWithTags);
    // Counted through the GIN index on entries.tag_ids: the entries holding both this tag and a given one.
    out.push(
      (p) =>
        `NOT (t.id = ANY(${p(given)}::bigint[])) AND (SELECT count(*) FROM entries e
           WHERE e.user_id = t.user_id AND NOT e.deleted AND e.tag_ids @> ARRAY[t.id] AND e.tag_ids && ${p(given)}::bigint[]
         ) >= ${p(filters.usedWithTagsMin ?? 1)}`,
    );
  }
  if (filters.usedWithCategories) {
    const categories = validIds(filters.usedWithCategories);
    out.push(
      (p) =>
        `EXISTS (SELECT 1 FROM entries e WHERE e.user_id = t.user_id AND NOT e.deleted AND e.tag_ids @> ARRAY[t.id]
           AND e.category_id = ANY(${p(categories)}::bigint[]))`,
    );
  }
  return out;
}

/** Tags of one user, as plain data: reads take a `UserRead`, writes run in the caller's `UserChange`. */
export class TagRepository extends NamedLabelRepository<Tag, TagFilters> {
  constructor() {
    super(tagsTable, { filtersOf, counters: tagUsageCounters, countKeys: TAG_COUNT_KEYS });
  }

  async delete(change: UserChange, id: string): Promise<boolean> {
    const deleted = await tagsTable.softDelete(change, [id]);
    if (deleted) {
      for (const hook of tagReferenceHooks) await hook(change, { fromIds: [id], toId: null });
    }
    return deleted > 0;
  }

  /** Merges `fromIds` into the tag `target.tag`, or turns them into the category `target.category`. */
  async merge(
    change: UserChange,
    fromIds: string[],
    target: { tag?: string; category?: string },
  ): Promise<void> {
    const sources = fromIds.filter((id) => id !== target.tag);
    const hooks = target.tag ? tagReferenceHooks : tagToCategoryHooks;
    const toId = target.tag ?? target.category ?? null;
    for (const hook of hooks) await hook(change, { fromIds: sources, toId });
    await tagsTable.softDelete(change, sources);
  }
}
