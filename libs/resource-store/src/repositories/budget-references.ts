import { handleOf, transactionOf } from '../sync/user-change';
import type { ReferenceHook, UsageCounter } from './reference-types';
import { budgetsTable } from './budgets-table';

/** `counts.budgets` of categories and tags: live budgets naming them in either form (include or `!`). */
function budgetsReferencing(include: string, exclude: string): UsageCounter {
  return async (read, ids) => {
    const rows: Array<{ id: string; count: number }> = await handleOf(read).query(
      `SELECT ref::text AS id, count(DISTINCT b.id)::int AS count
       FROM budgets b, unnest(b.${include} || b.${exclude}) ref
       WHERE b.user_id = $1 AND NOT b.deleted AND ref = ANY($2::bigint[]) GROUP BY ref`,
      [read.userId, ids],
    );
    return rows.map((row) => ({ id: row.id, key: 'budgets', count: row.count }));
  };
}

export const budgetsPerCategory = budgetsReferencing('category_ids', 'excluded_category_ids');
export const budgetsPerTag = budgetsReferencing('tag_ids', 'excluded_tag_ids');

/**
 * Merges move a budget's references to the target (both lists); a plain delete (toId null) keeps the id,
 * so the budget reports it as a `problem` rather than silently counting more entries.
 */
function mergeBudgetReferences(include: string, exclude: string): ReferenceHook {
  const replace = (column: string) =>
    `${column} = ARRAY(SELECT DISTINCT x FROM unnest(array(SELECT y FROM unnest(${column}) y WHERE y <> ALL($2::bigint[]))
       || CASE WHEN ${column} && $2::bigint[] THEN ARRAY[$4::bigint] ELSE '{}'::bigint[] END) x ORDER BY x)`;
  return async (change, { fromIds, toId }) => {
    if (toId === null || !fromIds.length) return;
    const result = await transactionOf(change).query(
      `UPDATE budgets SET ${replace(include)}, ${replace(exclude)}, change_seq = $3,
         modified_at = GREATEST(date_trunc('milliseconds', clock_timestamp()), modified_at + interval '1 millisecond')
       WHERE user_id = $1 AND NOT deleted AND (${include} && $2::bigint[] OR ${exclude} && $2::bigint[])
       RETURNING id::text AS id`,
      [change.userId, fromIds, change.changeSeq, toId],
    );
    const value = result as unknown[];
    const rows = (value.length === 2 && Array.isArray(value[0]) ? value[0] : value) as Array<{ id: string }>;
    await budgetsTable.recordRevisions(
      change,
      rows.map((row) => row.id),
    );
  };
}

export const budgetsCategoryHook = mergeBudgetReferences('category_ids', 'excluded_category_ids');
export const budgetsTagHook = mergeBudgetReferences('tag_ids', 'excluded_tag_ids');
export const budgetsAccountHook = mergeBudgetReferences('account_ids', 'excluded_account_ids');
