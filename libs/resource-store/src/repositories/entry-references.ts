import { handleOf, transactionOf, type UserChange } from '../sync/user-change';
import type { ReferenceHook, UsageCounter } from './reference-types';
import { entriesTable } from './entry.repository';

/** Gives rows changed by a bulk UPDATE a new `modified`, the transaction's change sequence and a revision. */
const TOUCH = `change_seq = $3, modified_at = GREATEST(date_trunc('milliseconds', clock_timestamp()), modified_at + interval '1 millisecond')`;

async function touched(change: UserChange, result: unknown): Promise<void> {
  const value = result as unknown[];
  const rows = (value.length === 2 && Array.isArray(value[0]) ? value[0] : value) as Array<{ id: string }>;
  await entriesTable.recordRevisions(
    change,
    rows.map((row) => String(row.id)),
  );
}

/** Entries of merged categories take the target; entries of a deleted category lose their category. */
export const entriesCategoryHook: ReferenceHook = async (change, { fromIds, toId }) => {
  const result = await transactionOf(change).query(
    `UPDATE entries SET category_id = $4, ${TOUCH}
     WHERE user_id = $1 AND category_id = ANY($2::bigint[]) AND NOT deleted RETURNING id`,
    [change.userId, fromIds, change.changeSeq, toId],
  );
  await touched(change, result);
};

/** Merged tags become the target tag on each entry (once); deleted tags are removed from entries. */
export const entriesTagHook: ReferenceHook = async (change, { fromIds, toId }) => {
  const result = await transactionOf(change).query(
    `UPDATE entries SET tag_ids = ARRAY(
        SELECT DISTINCT tag FROM unnest(
          array(SELECT x FROM unnest(tag_ids) x WHERE x <> ALL($2::bigint[])) ||
          CASE WHEN $4::bigint IS NULL THEN '{}'::bigint[] ELSE ARRAY[$4::bigint] END) tag ORDER BY tag), ${TOUCH}
     WHERE user_id = $1 AND tag_ids && $2::bigint[] AND NOT deleted RETURNING id`,
    [change.userId, fromIds, change.changeSeq, toId],
  );
  await touched(change, result);
};

/** Tags merged into a category: entries with those tags take the category and drop the tags. */
export const entriesTagToCategoryHook: ReferenceHook = async (change, { fromIds, toId }) => {
  const result = await transactionOf(change).query(
    `UPDATE entries SET category_id = coalesce($4::bigint, category_id),
        tag_ids = array(SELECT x FROM unnest(tag_ids) x WHERE x <> ALL($2::bigint[])), ${TOUCH}
     WHERE user_id = $1 AND tag_ids && $2::bigint[] AND NOT deleted RETURNING id`,
    [change.userId, fromIds, change.changeSeq, toId],
  );
  await touched(change, result);
};

/** Category `counts` from live entries: entries by kind, and distinct tags used with the category. */
export const entriesPerCategory: UsageCounter = async (read, ids) => {
  const rows: Array<{
    id: string;
    entries: number;
    income: number;
    expense: number;
    tags: number;
    income_tags: number;
    expense_tags: number;
  }> = await handleOf(read).query(
    `SELECT category_id::text AS id, count(*)::int AS entries,
              count(*) FILTER (WHERE amount > 0)::int AS income, count(*) FILTER (WHERE amount < 0)::int AS expense,
              (SELECT count(DISTINCT tag)::int FROM entries e2, unnest(e2.tag_ids) tag
                 WHERE e2.user_id = $1 AND e2.category_id = e.category_id AND NOT e2.deleted) AS tags,
              (SELECT count(DISTINCT tag)::int FROM entries e2, unnest(e2.tag_ids) tag
                 WHERE e2.user_id = $1 AND e2.category_id = e.category_id AND NOT e2.deleted AND e2.amount > 0) AS income_tags,
              (SELECT count(DISTINCT tag)::int FROM entries e2, unnest(e2.tag_ids) tag
                 WHERE e2.user_id = $1 AND e2.category_id = e.category_id AND NOT e2.deleted AND e2.amount < 0) AS expense_tags
       FROM entries e WHERE user_id = $1 AND category_id = ANY($2::bigint[]) AND NOT deleted GROUP BY category_id`,
    [read.userId, ids],
  );
  return rows.flatMap((row) => [
    { id: row.id, key: 'entries', count: row.entries },
    { id: row.id, key: 'income_entries', count: row.income },
    { id: row.id, key: 'expense_entries', count: row.expense },
    { id: row.id, key: 'tags_used_with_category', count: row.tags },
    { id: row.id, key: 'income_tags_used_with_category', count: row.income_tags },
    { id: row.id, key: 'expense_tags_used_with_category', count: row.expense_tags },
  ]);
};

/** Tag `counts.entries` from live entries; `unsorted_entries` are those without a category. */
export const entriesPerTag: UsageCounter = async (read, ids) => {
  const rows: Array<{ id: string; entries: number; unsorted: number }> = await handleOf(read).query(
    `SELECT tag::text AS id, count(*)::int AS entries, count(*) FILTER (WHERE category_id IS NULL)::int AS unsorted
     FROM entries, unnest(tag_ids) tag
     WHERE user_id = $1 AND tag_ids && $2::bigint[] AND tag = ANY($2::bigint[]) AND NOT deleted GROUP BY tag`,
    [read.userId, ids],
  );
  return rows.flatMap((row) => [
    { id: row.id, key: 'entries', count: row.entries },
    { id: row.id, key: 'unsorted_entries', count: row.unsorted },
  ]);
};
