import { routedHandleOf, type UserRead } from '../sync/user-change';

/** A date range of one budget (an iteration, or the period before the first) whose entries are summed. */
export interface BudgetWindow {
  /** The caller's key for the window (unique within one call). */
  key: number;
  budgetId: string;
  from: string;
  to: string;
}

/**
 * A window's total of one kind in one currency (exact text), before conversion, split into entries dated
 * up to `today` and after it (planned). In the budget's own currency nothing needs converting, so one total
 * covers the window (`date` null); in another currency the totals are per day (`date`) because each day
 * converts with its own ECB rate.
 */
export interface BudgetWindowTotal {
  key: number;
  date: string | null;
  planned: boolean;
  kind: 'expense' | 'income';
  currency: string;
  total: string;
}

/** Merges the windows' date ranges into disjoint ranges, so each entry is read once. */
function disjointRanges(windows: BudgetWindow[]): Array<{ from: string; to: string }> {
  const sorted = [...windows].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  const ranges: Array<{ from: string; to: string }> = [];
  for (const window of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && window.from <= last.to) {
      if (window.to > last.to) last.to = window.to;
    } else ranges.push({ from: window.from, to: window.to });
  }
  return ranges;
}

/**
 * Sums the entries matching each budget's filters in each window, per kind and currency, in ONE
 * statement for any number of budgets and windows (a list page costs one query):
 *
 * 1. `daily`: the entries of the windows' date ranges (merged, so each entry is read once, by range scans of
 *    the `(user_id, date)` index) are grouped by day, category, account, tags and currency. Budgets share
 *    this: 200 budgets over the same months read those months once.
 * 2. Each window is spread over its days and joined to those groups by day (a hash join), and the budget's
 *    filters pick the groups it counts.
 *
 * Nothing but window totals (per day where another currency needs the day's rate) leaves the database. Rules:
 * - Expenses match the budget's category, tag and account filters; incomes (needed only by percent
 *   budgets, whose limit is a share of the incomes) match its account filters only.
 * - Transfers are neither (as in /entries/sums).
 * - An entry whose account is in the budget's currency counts with its stored account amount (its own
 *   rate); any other entry is returned in its own currency for the caller to convert with the ECB rate
 *   of its day.
 */
export async function sumBudgetWindows(
  read: UserRead,
  windows: BudgetWindow[],
  today: string,
): Promise<BudgetWindowTotal[]> {
  if (!windows.length) return [];
  const ranges = disjointRanges(windows);
  return (await routedHandleOf(read)).query(
    `WITH daily AS MATERIALIZED (
       SELECT x.* FROM unnest($6::date[], $7::date[]) AS r(date_from, date_to)
       CROSS JOIN LATERAL (
         SELECT e.date, e.category_id, e.account_id, e.tag_ids, e.currency, a.currency AS account_currency,
                e.amount < 0 AS is_expense, sum(e.amount) AS amount, sum(e.account_amount) AS account_amount
         FROM entries e JOIN accounts a ON a.id = e.account_id
         WHERE e.user_id = $1 AND e.date BETWEEN r.date_from AND r.date_to
           AND NOT e.deleted AND e.transaction_id IS NULL AND e.amount <> 0
         GROUP BY 1, 2, 3, 4, 5, 6, 7
         OFFSET 0 -- keeps the range scan per merged range (the planner would otherwise flatten the lateral)
       ) x
     ),
     -- Days are expanded only where entries are: a window spanning centuries costs what its entries cost.
     bounds AS (SELECT min(date) AS low, max(date) AS high FROM daily),
     window_days AS MATERIALIZED (
       SELECT w.key, w.budget_id, day::date AS date
       FROM unnest($2::int[], $3::bigint[], $4::date[], $5::date[]) AS w(key, budget_id, date_from, date_to)
       CROSS JOIN bounds,
       generate_series(greatest(w.date_from, bounds.low), least(w.date_to, bounds.high), interval '1 day') day
     )
     SELECT wd.key, d.date > $8::date AS planned,
            CASE WHEN d.account_currency = b.currency OR d.currency = b.currency THEN NULL
              ELSE to_char(d.date, 'YYYY-MM-DD') END AS date,
            CASE WHEN d.is_expense THEN 'expense' ELSE 'income' END AS kind,
            CASE WHEN d.account_currency = b.currency THEN d.account_currency ELSE d.currency END AS currency,
            sum(CASE WHEN d.account_currency = b.currency THEN d.account_amount ELSE d.amount END)::text AS total
     FROM window_days wd
     JOIN budgets b ON b.id = wd.budget_id AND b.user_id = $1
     JOIN daily d ON d.date = wd.date
     WHERE (cardinality(b.account_ids) = 0 OR d.account_id = ANY(b.account_ids))
       AND NOT (d.account_id = ANY(b.excluded_account_ids))
       AND (
         (d.is_expense
           AND (cardinality(b.category_ids) = 0 OR d.category_id = ANY(b.category_ids))
           AND NOT coalesce(d.category_id = ANY(b.excluded_category_ids), false)
           AND (cardinality(b.tag_ids) = 0 OR d.tag_ids && b.tag_ids)
           AND NOT (d.tag_ids && b.excluded_tag_ids))
         OR (NOT d.is_expense AND b.type = 'percent'))
     GROUP BY 1, 2, 3, 4, 5`,
    [
      read.userId,
      windows.map((window) => window.key),
      windows.map((window) => window.budgetId),
      windows.map((window) => window.from),
      windows.map((window) => window.to),
      ranges.map((range) => range.from),
      ranges.map((range) => range.to),
      today,
    ],
  );
}
