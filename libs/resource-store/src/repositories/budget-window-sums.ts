import type { DataSource, EntityManager } from 'typeorm';

/** A date range of one budget (an iteration, or the period before the first) whose entries are summed. */
export interface BudgetWindow {
  /** The caller's key for the window (unique within one call). */
  key: number;
  budgetId: string;
  from: string;
  to: string;
}

/** One day's total of one kind in one currency for one window (exact text), before conversion. */
export interface BudgetWindowTotal {
  key: number;
  date: string;
  kind: 'expense' | 'income';
  currency: string;
  total: string;
}

/**
 * Sums the entries matching each budget's filters in each window, per day, kind and currency, in ONE
 * statement for any number of budgets and windows (a list page costs one query). Each window is a range
 * scan of the `(user_id, date)` index; nothing but these daily totals leaves the database.
 *
 * - Expenses match the budget's category, tag and account filters; incomes (needed only by percent
 *   budgets, whose limit is a share of the incomes) match its account filters only.
 * - Transfers are neither (as in /entries/sums).
 * - An entry whose account is in the budget's currency counts with its stored account amount (its own
 *   rate); any other entry is returned in its own currency for the caller to convert with the ECB rate
 *   of its day.
 */
export async function sumBudgetWindows(
  source: DataSource | EntityManager,
  userId: string,
  windows: BudgetWindow[],
): Promise<BudgetWindowTotal[]> {
  if (!windows.length) return [];
  return source.query(
    `WITH w AS (
       SELECT * FROM unnest($2::int[], $3::bigint[], $4::date[], $5::date[]) AS w(key, budget_id, date_from, date_to)
     )
     SELECT w.key, to_char(e.date, 'YYYY-MM-DD') AS date,
            CASE WHEN e.amount < 0 THEN 'expense' ELSE 'income' END AS kind,
            CASE WHEN a.currency = b.currency THEN a.currency ELSE e.currency END AS currency,
            sum(CASE WHEN a.currency = b.currency THEN e.account_amount ELSE e.amount END)::text AS total
     FROM w
     JOIN budgets b ON b.id = w.budget_id AND b.user_id = $1
     JOIN entries e ON e.user_id = $1 AND e.date BETWEEN w.date_from AND w.date_to
     JOIN accounts a ON a.id = e.account_id
     WHERE NOT e.deleted AND e.transaction_id IS NULL AND e.amount <> 0
       AND (cardinality(b.account_ids) = 0 OR e.account_id = ANY(b.account_ids))
       AND NOT (e.account_id = ANY(b.excluded_account_ids))
       AND (
         (e.amount < 0
           AND (cardinality(b.category_ids) = 0 OR e.category_id = ANY(b.category_ids))
           AND NOT coalesce(e.category_id = ANY(b.excluded_category_ids), false)
           AND (cardinality(b.tag_ids) = 0 OR e.tag_ids && b.tag_ids)
           AND NOT (e.tag_ids && b.excluded_tag_ids))
         OR (e.amount > 0 AND b.type = 'percent'))
     GROUP BY 1, 2, 3, 4`,
    [
      userId,
      windows.map((window) => window.key),
      windows.map((window) => window.budgetId),
      windows.map((window) => window.from),
      windows.map((window) => window.to),
    ],
  );
}
