import { inputError } from '@pfs/errors';
import type { Budget } from '@pfs/resource-store';
import { BudgetCalendar } from './budget-iterations';
import { type BudgetUser, viewBudgets } from './budget-views.use-case';
import type { BudgetsDeps } from './budgets.deps';
import { presentHistoryItem } from './budgets.presenter';

/** Ten years of daily iterations: history pages beyond it are refused (ask with a later `from`). */
const MAX_HISTORY_ITERATIONS = 3_653;

/**
 * GET /budgets/{id}/history: the budget's iterations overlapping [from (default: its start), to], newest
 * first, one page at a time (figures only for that page, one query).
 */
export async function budgetHistory(
  deps: BudgetsDeps,
  user: BudgetUser,
  budget: Budget,
  options: { from?: string; to: string; page: number; perPage: number },
): Promise<{ items: Record<string, unknown>[]; total: number }> {
  const calendar = new BudgetCalendar(budget.recurrence, user.startDay);
  const range = calendar.rangeOf(options.from ?? budget.recurrence.start, options.to);
  if (range.count > MAX_HISTORY_ITERATIONS) {
    throw inputError([
      { field: 'from', error: `the range holds more than ${MAX_HISTORY_ITERATIONS} iterations` },
    ]);
  }
  const newest = range.first + range.count - 1;
  const skip = options.page * options.perPage;
  const indexes = Array.from(
    { length: Math.max(0, Math.min(options.perPage, range.count - skip)) },
    (_, n) => newest - skip - n,
  );
  const views = await viewBudgets(
    deps,
    user,
    indexes.map((index) => ({ budget, iteration: calendar.at(index)! })),
  );
  return { items: views.map(presentHistoryItem), total: range.count };
}
