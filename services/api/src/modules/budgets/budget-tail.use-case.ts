import { inputError } from '@pfs/errors';
import { type Actor, type Budget, budgetsTable } from '@pfs/resource-store';
import { currentIteration } from './budget-views.use-case';
import { lockBudget, resolveBudgetWrite, type UpdateBudgetOptions } from './budget-writes.use-case';
import type { BudgetsDeps } from './budgets.deps';

const dayBefore = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/**
 * `PUT /budgets/{id}?update=tail`: change the current iteration and the ones after it, keep the past. The
 * budget is split where the current iteration (the one holding today) starts: the existing budget keeps its
 * old definition and ends the day before; a new budget with the new definition starts there (same order)
 * and is returned. When the current iteration is the first, nothing is in the past: the budget itself
 * changes, as with `update=all`.
 */
export async function updateBudgetTail(
  deps: BudgetsDeps,
  actor: Actor,
  options: UpdateBudgetOptions & { startDay: number; today: string },
): Promise<Budget> {
  return deps.store.change(actor, async (change) => {
    const current = await lockBudget(change, options.id);
    if (current.recurrence.end && current.recurrence.end < options.today) {
      // Every iteration is in the past, and the past keeps its definition: there is no tail to change.
      throw inputError([
        {
          field: 'update',
          error: `the budget ended on ${current.recurrence.end}: use update=all to change it`,
        },
      ]);
    }
    const snapshot = await resolveBudgetWrite(change, current, options);
    const split = currentIteration(current, options.startDay, options.today);
    if (split.index <= 0) return (await budgetsTable.update(change, current.id, snapshot))!;
    if (snapshot.recurrence.end && snapshot.recurrence.end < split.from) {
      throw inputError([
        { field: 'recurrence.end', error: `must not be before ${split.from}, where the tail starts` },
      ]);
    }
    const past = budgetsTable.options.toSnapshot(current) as typeof snapshot;
    await budgetsTable.update(change, current.id, {
      ...past,
      recurrence: { ...past.recurrence, end: dayBefore(split.from) },
    });
    return budgetsTable.insert(change, {
      ...snapshot,
      recurrence: { ...snapshot.recurrence, start: split.from },
    });
  });
}
