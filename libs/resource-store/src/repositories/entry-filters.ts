import { routedHandleOf, type UserRead } from '../sync/user-change';
import { likePattern, type SqlFilter, SqlParams } from '../sync/sql-params';

/** An id list filter; `negate` is the `!name` form (entries matching none of the ids). */
export interface IdFilter {
  ids: string[];
  negate: boolean;
}

/** The list filters of `/entries` (reference §4), all optional and combined with AND. */
export interface EntryFilters {
  from?: string;
  to?: string;
  type?: 'expense' | 'income' | 'transaction';
  accounts?: IdFilter[];
  categories?: IdFilter[];
  tags?: IdFilter[];
  locations?: IdFilter[];
  search?: string;
  ids?: string[];
}

function idFilter(column: string, filter: IdFilter): SqlFilter {
  return (param) => {
    const match = `${column} = ANY(${param(filter.ids)}::bigint[])`;
    return filter.negate ? `${column} IS NULL OR NOT (${match})` : match;
  };
}

/** Turns parsed filters into conditions on the entries table (alias `t`), for `ResourceTable.list`. */
export function buildEntryFilters(filters: EntryFilters): SqlFilter[] {
  const conditions: SqlFilter[] = [];
  if (filters.from) conditions.push((param) => `t.date >= ${param(filters.from)}::date`);
  if (filters.to) conditions.push((param) => `t.date <= ${param(filters.to)}::date`);
  if (filters.type === 'expense') conditions.push(() => 't.amount < 0 AND t.transaction_id IS NULL');
  if (filters.type === 'income') conditions.push(() => 't.amount > 0 AND t.transaction_id IS NULL');
  if (filters.type === 'transaction') conditions.push(() => 't.transaction_id IS NOT NULL');
  for (const filter of filters.accounts ?? []) conditions.push(idFilter('t.account_id', filter));
  for (const filter of filters.categories ?? []) conditions.push(idFilter('t.category_id', filter));
  for (const filter of filters.tags ?? []) {
    conditions.push((param) => {
      const overlap = `t.tag_ids && ${param(filter.ids)}::bigint[]`;
      return filter.negate ? `NOT (${overlap})` : overlap;
    });
  }
  for (const filter of filters.locations ?? []) {
    conditions.push((param) => {
      const match = `(t.location->>'id') = ANY(${param(filter.ids)}::text[])`;
      return filter.negate ? `t.location->>'id' IS NULL OR NOT (${match})` : match;
    });
  }
  if (filters.search) {
    conditions.push((param) => `t.description ILIKE ${param(likePattern(filters.search!))}`);
  }
  if (filters.ids) conditions.push((param) => `t.id = ANY(${param(filters.ids)}::bigint[])`);
  return conditions;
}

/** One day's total of one kind in one currency (exact text), before conversion. */
export interface DailyTotal {
  date: string;
  currency: string;
  kind: 'expense' | 'income';
  total: string;
  count: number;
  /** With `groupBy`: the tag or category the total belongs to (null: entries without a category). */
  group?: string | null;
  /** The latest `modified` of the entries in the total: what a sums row reports as its own. */
  modified: Date;
}

/**
 * Sums of expenses and incomes per day and entry currency, transfers excluded (moving money between
 * one's own accounts is neither). Conversion and grouping into weeks or months happen in the use case.
 */
export async function sumEntriesByDay(
  read: UserRead,
  filters: EntryFilters,
  /** Also per tag (an entry counts once for each of its tags) or per category. */
  groupBy?: 'tag' | 'category',
): Promise<DailyTotal[]> {
  const params = new SqlParams();
  const where = [
    `t.user_id = ${params.add(read.userId)}`,
    'NOT t.deleted',
    't.transaction_id IS NULL',
    't.amount <> 0',
  ];
  where.push(...buildEntryFilters(filters).map((filter) => `(${filter(params.add)})`));
  const group =
    groupBy === 'tag' ? 'g.tag_id::text' : groupBy === 'category' ? 't.category_id::text' : 'NULL::text';
  const join = groupBy === 'tag' ? 'CROSS JOIN LATERAL unnest(t.tag_ids) AS g (tag_id)' : '';
  const rows: DailyTotal[] = await (
    await routedHandleOf(read)
  ).query(
    `SELECT to_char(t.date, 'YYYY-MM-DD') AS date, t.currency,
              CASE WHEN t.amount < 0 THEN 'expense' ELSE 'income' END AS kind,
              sum(t.amount)::text AS total, count(*)::int AS count, ${group} AS "group",
              max(t.modified_at) AS modified
       FROM entries t ${join} WHERE ${where.join(' AND ')}
       GROUP BY 1, 2, 3, 6 ORDER BY 1, 2, 3, 6`,
    params.values,
  );
  return rows;
}
