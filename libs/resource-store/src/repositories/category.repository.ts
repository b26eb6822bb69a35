import { transactionOf, type UserChange } from '../sync/user-change';
import { RawRow, ResourceTable, returnedRows, Snapshot, SyncedRecord } from '../sync/resource-table';
import { categoryReferenceHooks } from './reference-hooks';
import { tagsTable } from './tags-table';
import { labelFilters, type LabelFilters, NamedLabelRepository } from './named-label.repository';
import { categoryUsageCounters } from './usage-counts';

export type CategoryType = 'expense' | 'income' | 'system';

export interface Category extends SyncedRecord {
  name: string;
  type: CategoryType;
}

/** A category list's filters: those of every label. */
export type CategoryFilters = LabelFilters;

export const CATEGORY_COUNT_KEYS = [
  'entries',
  'income_entries',
  'expense_entries',
  'tags_used_with_category',
  'income_tags_used_with_category',
  'expense_tags_used_with_category',
  'tags',
  'income_tags',
  'expense_tags',
  'budgets',
] as const;

export const categoriesTable = new ResourceTable<Category>({
  table: 'categories',
  kind: 'categories',
  columns: ['name', 'type'],
  toRecord: (row: RawRow) =>
    ResourceTable.withCommonFields(row, {
      name: String(row.name),
      type: row.type as CategoryType,
    }),
  toSnapshot: (record) => ({ name: record.name, type: record.type, extra: record.extra ?? undefined }),
  toColumns: (snapshot: Snapshot) => ({
    name: snapshot.name,
    type: snapshot.type,
    extra: snapshot.extra === undefined ? null : JSON.stringify(snapshot.extra),
  }),
});

/** Categories of one user, as plain data: reads take a `UserRead`, writes run in the caller's `UserChange`. */
export class CategoryRepository extends NamedLabelRepository<Category, CategoryFilters> {
  constructor() {
    super(categoriesTable, {
      filtersOf: labelFilters,
      counters: categoryUsageCounters,
      countKeys: CATEGORY_COUNT_KEYS,
    });
  }

  /** Soft-deletes; tags lose it as their category, other references follow the hooks. */
  async delete(change: UserChange, id: string): Promise<boolean> {
    const deleted = await categoriesTable.softDelete(change, [id]);
    if (deleted) await this.moveReferences(change, { fromIds: [id], toId: null });
    return deleted > 0;
  }

  /** Moves everything that used `fromIds` to `toId`, then deletes `fromIds`; all in `change`. */
  async merge(change: UserChange, fromIds: string[], toId: string): Promise<void> {
    const sources = fromIds.filter((id) => id !== toId);
    await this.moveReferences(change, { fromIds: sources, toId });
    await categoriesTable.softDelete(change, sources);
  }

  private async moveReferences(
    change: UserChange,
    options: { fromIds: string[]; toId: string | null },
  ): Promise<void> {
    const moved = await transactionOf(change).query(
      `UPDATE tags t SET category_id = $3, change_seq = $4,
         modified_at = GREATEST(date_trunc('milliseconds', clock_timestamp()), t.modified_at + interval '1 millisecond')
       WHERE t.user_id = $1 AND t.category_id = ANY($2::bigint[]) AND NOT t.deleted RETURNING t.id::text AS id`,
      [change.userId, options.fromIds, options.toId, change.changeSeq],
    );
    await tagsTable.recordRevisions(
      change,
      returnedRows(moved).map((row) => String(row.id)),
    );
    for (const hook of categoryReferenceHooks) await hook(change, options);
  }
}
