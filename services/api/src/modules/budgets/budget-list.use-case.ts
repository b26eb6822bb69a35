import { inputError } from '@pfs/errors';
import type { ListParams } from '@pfs/resource-api';
import {
  type Budget,
  type BudgetListFilters,
  budgetListFilters,
  budgetsTable,
  type PageResult,
  type SyncedRecord,
} from '@pfs/resource-store';
import type { BudgetAtIteration } from './budget-figures';
import { BudgetCalendar } from './budget-iterations';
import { type BudgetUser, viewBudgets } from './budget-views.use-case';
import type { BudgetsDeps } from './budgets.deps';
import { presentBudget } from './budgets.presenter';

/** A daily budget over a year: beyond this many iterations of one budget, ask for a narrower range. */
export const MAX_ITERATIONS_PER_BUDGET = 366;

/** One list item: a budget's sync position (id, change_seq, modified) with its presented iteration. */
export interface BudgetListItem extends SyncedRecord {
  body: Record<string, unknown>;
}

/**
 * GET /budgets: a page of budgets (the layer's order, `since`, `include_deleted`), each expanded into its
 * iterations overlapping [from, to] (or only the first with `oneIterationOnly`). Pagination counts budgets:
 * a page holds every iteration of its budgets. Figures for the whole page come from one query.
 */
export async function listBudgetIterations(
  deps: BudgetsDeps,
  user: BudgetUser,
  options: { params: ListParams; filters: BudgetListFilters; oneIterationOnly: boolean },
): Promise<PageResult<BudgetListItem>> {
  const { filters } = options;
  const page = await budgetsTable.list(
    deps.store.read(user.actor),
    options.params,
    budgetListFilters(filters),
  );
  const items: BudgetAtIteration[] = page.items.flatMap((budget: Budget) => {
    const calendar = new BudgetCalendar(budget.recurrence, user.startDay);
    const range = calendar.rangeOf(filters.from, filters.to);
    const count = options.oneIterationOnly ? Math.min(1, range.count) : range.count;
    if (count > MAX_ITERATIONS_PER_BUDGET) {
      throw inputError([
        {
          field: 'to',
          error: `the range holds more than ${MAX_ITERATIONS_PER_BUDGET} iterations of budget ${budget.id}; narrow it or use one_iteration_only`,
        },
      ]);
    }
    return Array.from({ length: count }, (_, offset) => ({
      budget,
      iteration: calendar.at(range.first + offset)!,
    }));
  });
  const views = await viewBudgets(deps, user, items);
  return {
    ...page,
    items: views.map((view) => ({
      id: view.budget.id,
      createdAt: view.budget.createdAt,
      modifiedAt: view.budget.modifiedAt,
      changeSeq: view.budget.changeSeq,
      deleted: view.budget.deleted,
      extra: view.budget.extra,
      body: presentBudget(view),
    })),
  };
}
