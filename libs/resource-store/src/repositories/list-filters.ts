import type { SqlFilter } from '../sync/sql-params';

/**
 * Named list conditions that routes ask for by meaning. They live in the store so that nothing above it
 * spells a column or an operator (issue 12: routes → use cases → repositories, SQL only in the store).
 */

/** `GET /accounts?status=&ids=`: accounts in that status, and/or among those ids. */
export function accountListFilters(filters: { status?: string; ids?: string[] }): SqlFilter[] {
  const conditions: SqlFilter[] = [];
  if (filters.status) conditions.push((param) => `t.status = ${param(filters.status)}`);
  if (filters.ids) conditions.push((param) => `t.id = ANY(${param(filters.ids)}::bigint[])`);
  return conditions;
}

/** `?repeat=<series id>`: only that series' entries (a series of another user matches none). */
export function repeatSeriesFilters(seriesId: string | undefined): SqlFilter[] {
  return seriesId ? [(param) => `t.repeat_id = ${param(seriesId)}`] : [];
}

/** Expenses and incomes only: transfers (and zero amounts) are neither, as in every sum. */
export const expensesAndIncomesFilter: SqlFilter = () => 't.amount <> 0 AND t.transaction_id IS NULL';
