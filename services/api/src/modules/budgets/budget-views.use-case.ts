import { findCrossRate } from '@pfs/money';
import type { Actor, Budget, UserRead } from '@pfs/resource-store';
import { type BudgetAtIteration, type BudgetFigures, computeBudgetFigures } from './budget-figures';
import { Decimal } from '@pfs/money';
import { BudgetCalendar, type Iteration } from './budget-iterations';
import type { BudgetsDeps } from './budgets.deps';
import type { BudgetProblem, BudgetView } from './budgets.presenter';

/** The user facts a budget's iterations depend on: the month start and the main currency. */
export interface BudgetUser {
  /** Whom the budget reads act for (the request's context). */
  actor: Actor;
  id: string;
  startDay: number;
  currency: string;
}

/** Today (UTC): entries dated after it are `planned`. */
export const todayUtc = () => new Date().toISOString().slice(0, 10);

/**
 * The iteration a single budget is shown at: the one holding today; before the budget starts, the first;
 * after it ends, the last.
 */
export function currentIteration(budget: Budget, startDay: number, today = todayUtc()): Iteration {
  const calendar = new BudgetCalendar(budget.recurrence, startDay);
  const { start, end } = budget.recurrence;
  const day = today < start ? start : end && today > end ? end : today;
  return calendar.covering(day)!;
}

/**
 * Views of budgets at iterations: figures for all of them in one query, deleted references in another,
 * main-currency rates from the in-memory table.
 */
export async function viewBudgets(
  deps: BudgetsDeps,
  user: BudgetUser,
  items: BudgetAtIteration[],
  /** Where to read: the pool, or the change that just wrote the budget (not committed yet). */
  read: UserRead = deps.store.read(user.actor),
): Promise<BudgetView[]> {
  const figures = await rememberedFigures(deps, read, user, items);
  const problems = await findProblems(deps, read, [...new Set(items.map((item) => item.budget))]);
  return items.map((item, index) => ({
    ...item,
    figures: figures[index],
    mainRate: findCrossRate(deps.rates, item.budget.currency.code, user.currency, item.iteration.from),
    problem: problems.get(item.budget.id),
  }));
}

async function findProblems(deps: BudgetsDeps, read: UserRead, budgets: Budget[]) {
  const refs = (fields: Array<keyof Budget['references']>) =>
    budgets.flatMap((budget) => fields.flatMap((field) => budget.references[field]));
  const deleted = await deps.budgets.findDeletedReferences(read, {
    categories: refs(['categories', '!categories']),
    tags: refs(['tags', '!tags']),
    accounts: refs(['accounts', '!accounts']),
  });
  const problems = new Map<string, BudgetProblem>();
  for (const budget of budgets) {
    const pick = (set: Set<string>, fields: Array<keyof Budget['references']>) =>
      fields.flatMap((field) => budget.references[field]).filter((id) => set.has(id));
    const problem = {
      deleted_categories: pick(deleted.categories, ['categories', '!categories']),
      deleted_tags: pick(deleted.tags, ['tags', '!tags']),
      deleted_accounts: pick(deleted.accounts, ['accounts', '!accounts']),
    };
    if (Object.values(problem).some((ids) => ids.length)) problems.set(budget.id, problem);
  }
  return problems;
}

type StoredFigures = Record<keyof BudgetFigures, string | undefined>;

/**
 * Figures change only when the user writes (entries, accounts, budgets), when the day changes (planned)
 * or with the month start: remembered under the user's watermark with today and start_day in the key, a
 * repeated read costs no entry scan. Decimals travel as exact strings.
 */
async function rememberedFigures(
  deps: BudgetsDeps,
  read: UserRead,
  user: BudgetUser,
  items: BudgetAtIteration[],
): Promise<BudgetFigures[]> {
  const today = todayUtc();
  const compute = () => computeBudgetFigures(deps, read, items, { startDay: user.startDay, today });
  // A change's view (its writes not committed) is never remembered under the committed watermark.
  if (!deps.remember || !items.length || 'changeSeq' in read) return compute();
  const key = `budget-figures:${user.id}:${today}:${user.startDay}:${items
    .map((item) => `${item.budget.id}@${item.budget.modifiedAt.getTime()}#${item.iteration.index}`)
    .join(',')}`;
  const stored = await deps.remember(user.id, key, async () =>
    (await compute()).map(
      (figures) =>
        Object.fromEntries(
          Object.entries(figures).map(([name, value]) => [name, value?.toString()]),
        ) as StoredFigures,
    ),
  );
  return stored.map(
    (figures) =>
      Object.fromEntries(
        Object.entries(figures)
          .filter(([, value]) => value !== undefined && value !== null)
          .map(([name, value]) => [name, new Decimal(value!)]),
      ) as unknown as BudgetFigures,
  );
}
