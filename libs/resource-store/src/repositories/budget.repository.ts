import { handleOf, type UserRead } from '../sync/user-change';
import { likePattern, type SqlFilter } from '../sync/sql-params';
import { type Budget, budgetsTable } from './budgets-table';

export {
  BUDGET_FREQUENCIES,
  BUDGET_REFERENCE_FIELDS,
  BUDGET_STATUSES,
  BUDGET_TYPES,
  budgetsTable,
} from './budgets-table';
export type { Budget, BudgetRecurrence, BudgetReferenceField, BudgetSnapshot } from './budgets-table';

/** List filters of `/budgets`; `from`/`to` keep the budgets with an iteration in that range. */
export interface BudgetListFilters {
  from: string;
  to: string;
  categories?: string[];
  tags?: string[];
  accounts?: string[];
  search?: string;
  /** true: only budgets naming a deleted category, tag or account; false: only those that do not. */
  hasProblem?: boolean;
}

/**
 * Iterations cover `start` to `end` (or on without an end) without gaps, so a budget has an iteration in
 * [from, to] exactly when its span overlaps it: the filter is exact and pagination counts stay right.
 */
export function budgetListFilters(filters: BudgetListFilters): SqlFilter[] {
  const out: SqlFilter[] = [
    (p) => `t.start_date <= ${p(filters.to)}::date`,
    (p) => `(t.end_date IS NULL OR t.end_date >= ${p(filters.from)}::date)`,
  ];
  for (const [list, column] of [
    [filters.categories, 'category_ids'],
    [filters.tags, 'tag_ids'],
    [filters.accounts, 'account_ids'],
  ] as const) {
    if (list) out.push((p) => `t.${column} && ${p(list)}::bigint[]`);
  }
  if (filters.search) out.push((p) => `t.name ILIKE ${p(likePattern(filters.search!))}`);
  if (filters.hasProblem !== undefined) {
    const deleted = (table: string, include: string, exclude: string) =>
      `EXISTS (SELECT 1 FROM ${table} r WHERE r.user_id = t.user_id AND r.deleted AND r.id = ANY(t.${include} || t.${exclude}))`;
    const problem = [
      deleted('categories', 'category_ids', 'excluded_category_ids'),
      deleted('tags', 'tag_ids', 'excluded_tag_ids'),
      deleted('accounts', 'account_ids', 'excluded_account_ids'),
    ].join(' OR ');
    out.push(() => (filters.hasProblem ? `(${problem})` : `NOT (${problem})`));
  }
  return out;
}

/** Budget-specific SQL beyond the shared table helpers. Returns plain data. */
export class BudgetRepository {
  readonly table = budgetsTable;

  /** The next free position at the end of the user's order. */
  async nextOrder(read: UserRead): Promise<number> {
    const [row] = await handleOf(read).query(
      `SELECT coalesce(max(sort_order) + 1, 0)::int AS next FROM budgets WHERE user_id = $1 AND NOT deleted`,
      [read.userId],
    );
    return Math.min(row.next, 255);
  }

  /** Ids of the user's live budgets in display order (order, then id). */
  async idsInOrder(read: UserRead): Promise<string[]> {
    const rows: Array<{ id: string }> = await handleOf(read).query(
      `SELECT id::text AS id FROM budgets WHERE user_id = $1 AND NOT deleted ORDER BY sort_order, id`,
      [read.userId],
    );
    return rows.map((row) => row.id);
  }

  /**
   * The user's live, active regular budgets without any filter, lowest order first: the candidates for the
   * overall budget of `/me/summary`.
   */
  async findOverallCandidates(read: UserRead): Promise<Budget[]> {
    const rows: Array<{ id: string }> = await handleOf(read).query(
      `SELECT id::text AS id FROM budgets
       WHERE user_id = $1 AND NOT deleted AND status = 'active' AND type = 'regular'
         AND cardinality(category_ids) = 0 AND cardinality(excluded_category_ids) = 0
         AND cardinality(tag_ids) = 0 AND cardinality(excluded_tag_ids) = 0
         AND cardinality(account_ids) = 0 AND cardinality(excluded_account_ids) = 0
       ORDER BY sort_order, id`,
      [read.userId],
    );
    const found = await budgetsTable.findByIds(
      read,
      rows.map((row) => row.id),
    );
    return rows.map((row) => found.find((budget) => budget.id === row.id)!).filter(Boolean);
  }

  /** Among `ids` of each kind, those the user deleted (a budget referencing them has a problem). */
  async findDeletedReferences(
    read: UserRead,
    referenced: { categories: string[]; tags: string[]; accounts: string[] },
  ): Promise<{ categories: Set<string>; tags: Set<string>; accounts: Set<string> }> {
    const rows: Array<{ kind: 'categories' | 'tags' | 'accounts'; id: string }> = await handleOf(read).query(
      `SELECT 'categories' AS kind, id::text AS id FROM categories WHERE user_id = $1 AND deleted AND id = ANY($2::bigint[])
       UNION ALL SELECT 'tags', id::text FROM tags WHERE user_id = $1 AND deleted AND id = ANY($3::bigint[])
       UNION ALL SELECT 'accounts', id::text FROM accounts WHERE user_id = $1 AND deleted AND id = ANY($4::bigint[])`,
      [read.userId, referenced.categories, referenced.tags, referenced.accounts],
    );
    const result = { categories: new Set<string>(), tags: new Set<string>(), accounts: new Set<string>() };
    for (const row of rows) result[row.kind].add(row.id);
    return result;
  }
}
