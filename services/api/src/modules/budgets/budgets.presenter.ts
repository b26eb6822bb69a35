import { amountToJson, type Decimal } from '@pfs/money';
import { compact, formatModified } from '@pfs/resource-api';
import { BUDGET_REFERENCE_FIELDS, type Budget } from '@pfs/resource-store';
import type { BudgetFigures } from './budget-figures';
import type { Iteration } from './budget-iterations';

/** Filter ids that name deleted objects: the budget's `problem`. */
export interface BudgetProblem {
  deleted_categories: string[];
  deleted_tags: string[];
  deleted_accounts: string[];
}

export interface BudgetView {
  budget: Budget;
  iteration: Iteration;
  figures: BudgetFigures;
  /** Budget currency → the user's main currency on the iteration's first day, when known. */
  mainRate?: Decimal;
  problem?: BudgetProblem;
}

const money = (value: Decimal | undefined) => (value === undefined ? undefined : amountToJson(value));

/** The `/budgets` representation: one budget at one iteration. */
export function presentBudget(view: BudgetView): Record<string, unknown> {
  const { budget, iteration, figures } = view;
  return compact({
    id: budget.id,
    name: budget.name,
    type: budget.type,
    limit: amountToJson(figures.limit),
    delta: budget.delta === null ? undefined : amountToJson(budget.delta),
    percent: budget.percent === null ? undefined : Number(budget.percent),
    currency: compact({
      code: budget.currency.code,
      rate: budget.currency.rate === undefined ? undefined : Number(budget.currency.rate),
      main_rate: view.mainRate === undefined ? undefined : view.mainRate.toNumber(),
      fixed: budget.currency.fixed,
    }),
    recurrence: { ...budget.recurrence, iteration: iteration.index },
    from: iteration.from,
    to: iteration.to,
    amount: amountToJson(figures.amount),
    planned: amountToJson(figures.planned),
    limit_planned: amountToJson(figures.limitPlanned),
    history_amount_median: money(figures.historyAmountMedian),
    rollover: budget.rollover,
    rollover_amount: money(figures.rolloverAmount),
    order: budget.order,
    status: budget.status,
    ...Object.fromEntries(BUDGET_REFERENCE_FIELDS.map((field) => [field, budget.references[field]])),
    problem: view.problem && {
      description: 'A category, tag or account of this budget was deleted.',
      ...compact({ ...view.problem }),
    },
    modified: formatModified(budget.modifiedAt),
    deleted: budget.deleted || undefined,
    recalculated: true,
    extra: budget.extra,
  });
}

/** One item of `/budgets/{id}/history`. */
export function presentHistoryItem(view: BudgetView): Record<string, unknown> {
  const { budget, iteration, figures } = view;
  return compact({
    budget_id: budget.id,
    from: iteration.from,
    to: iteration.to,
    iteration: iteration.index,
    limit: amountToJson(figures.limit),
    currency: compact({
      code: budget.currency.code,
      rate: budget.currency.rate === undefined ? undefined : Number(budget.currency.rate),
      main_rate: view.mainRate === undefined ? undefined : view.mainRate.toNumber(),
      fixed: budget.currency.fixed,
    }),
    limit_planned: amountToJson(figures.limitPlanned),
    amount: amountToJson(figures.amount),
    planned: amountToJson(figures.planned),
    rollover_amount: money(figures.rolloverAmount),
  });
}
