import { inputError } from '@pfs/errors';
import { convertAmount, type Decimal } from '@pfs/money';
import { BudgetCalendar } from '../budgets/budget-iterations';
import { type BudgetUser, viewBudgets } from '../budgets/budget-views.use-case';
import type { BudgetsDeps } from '../budgets/budgets.deps';
import { type BudgetView } from '../budgets/budgets.presenter';

/** The summary's overall budget at the iteration holding `from`, and `left` in the summary currency. */
export interface SummaryBudget {
  view: BudgetView;
  /** limit − amount, converted to the summary currency with the ECB rate of the iteration's first day. */
  left: Decimal;
}

/**
 * The overall budget of a period: among the user's active regular budgets without any category, tag or
 * account filter, the one with the lowest `order` (then the oldest) whose iteration covers `from`.
 * Undefined when there is none.
 */
export async function findSummaryBudget(
  deps: BudgetsDeps,
  user: BudgetUser,
  options: { from: string; currency: string },
): Promise<SummaryBudget | undefined> {
  for (const budget of await deps.budgets.findOverallCandidates(deps.store.read(user.actor))) {
    const iteration = new BudgetCalendar(budget.recurrence, user.startDay).covering(options.from);
    if (!iteration) continue;
    const [view] = await viewBudgets(deps, user, [{ budget, iteration }]);
    const left = convertAmount(deps.rates, {
      amount: view.figures.limit.minus(view.figures.amount),
      from: budget.currency.code,
      to: options.currency,
      date: iteration.from,
    });
    if (!left) {
      throw inputError([
        {
          field: 'currency',
          error: `no stored rate from ${budget.currency.code} to ${options.currency} on ${iteration.from}`,
        },
      ]);
    }
    return { view, left };
  }
  return undefined;
}
