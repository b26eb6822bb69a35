import { RawRow, ResourceTable, Snapshot, SyncedRecord } from '../sync/resource-table';

export type TagType = 'expense' | 'income';

export interface Tag extends SyncedRecord {
  name: string;
  type: TagType;
  categoryId: string | null;
}

/** The tags table; shared by the tag repository and the category repository (which moves tags' category). */
export const tagsTable = new ResourceTable<Tag>({
  table: 'tags',
  kind: 'tags',
  columns: ['name', 'type', 'category_id'],
  toRecord: (row: RawRow) =>
    ResourceTable.withCommonFields(row, {
      name: String(row.name),
      type: row.type as TagType,
      categoryId: row.category_id === null ? null : String(row.category_id),
    }),
  toSnapshot: (record) => ({
    name: record.name,
    type: record.type,
    category: record.categoryId ?? undefined,
    extra: record.extra ?? undefined,
  }),
  toColumns: (snapshot: Snapshot) => ({
    name: snapshot.name,
    type: snapshot.type,
    category_id: snapshot.category ?? null,
    extra: snapshot.extra === undefined ? null : JSON.stringify(snapshot.extra),
  }),
});
