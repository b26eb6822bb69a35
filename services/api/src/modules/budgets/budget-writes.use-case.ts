import { type FieldError, inputError, notFound } from '@pfs/errors';
import { assertExtraSize, resolveWrite } from '@pfs/resource-api';
import {
  type Actor,
  accountsTable,
  type Budget,
  type BudgetReferenceField,
  type BudgetSnapshot,
  budgetsTable,
  categoriesTable,
  type ResourceTable,
  type Snapshot,
  type SyncedRecord,
  tagsTable,
  type UserChange,
  type UserRead,
} from '@pfs/resource-store';
import { assertBudgetRules, budgetSnapshotOf } from './budget-rules';
import type { BudgetBody } from './budgets.schema';
import type { BudgetsDeps } from './budgets.deps';
import { movedIds, reorderedIds, writeDisplayOrder } from '../ordering/display-order';

/** Where each filter list's ids live. */
const TABLE_OF: Record<BudgetReferenceField, Pick<ResourceTable<SyncedRecord>, 'findByIds'>> = {
  categories: categoriesTable,
  '!categories': categoriesTable,
  tags: tagsTable,
  '!tags': tagsTable,
  accounts: accountsTable,
  '!accounts': accountsTable,
};

/**
 * Every id in the six filter lists must be one of the user's live categories, tags or accounts (400
 * naming `categories.N`, …). Ids the budget already had may stay even if deleted since: they are its
 * `problem`, and a whole-object PUT of the fetched budget must still work.
 */
async function assertReferences(read: UserRead, state: Snapshot, previous?: Budget): Promise<void> {
  const errors: FieldError[] = [];
  for (const [field, table] of Object.entries(TABLE_OF) as Array<
    [BudgetReferenceField, (typeof TABLE_OF)[BudgetReferenceField]]
  >) {
    const ids = (state[field] as string[] | undefined) ?? [];
    if (!ids.length) continue;
    const live = new Set((await table.findByIds(read, ids)).map((record) => record.id));
    const kept = new Set(previous?.references[field] ?? []);
    ids.forEach((id, index) => {
      if (!live.has(id) && !kept.has(id))
        errors.push({ field: `${field}.${index}`, error: `must be one of your ${field.replace('!', '')}` });
    });
  }
  if (errors.length) throw inputError(errors);
}

export async function createBudget(deps: BudgetsDeps, change: UserChange, body: BudgetBody): Promise<Budget> {
  assertBudgetRules(body);
  const snapshot = budgetSnapshotOf(body, { order: await deps.budgets.nextOrder(change) });
  await assertReferences(change, snapshot);
  return deps.budgets.table.insert(change, snapshot);
}

export interface UpdateBudgetOptions {
  id: string;
  clientModified: Date;
  /** The client's intended state from the state it edited (PUT: the body; PATCH: the patch applied). */
  intended: (edited: Snapshot) => Snapshot;
  /** Validates a full state against the published schema (the route's registry). */
  parseState: (state: Snapshot) => BudgetBody;
  presentCurrent: (budget: Budget) => unknown;
}

/** PUT/PATCH under the write rule (stale → merge or 409), then the budget rules and references. */
export async function updateBudget(
  deps: BudgetsDeps,
  actor: Actor,
  options: UpdateBudgetOptions,
): Promise<Budget> {
  return deps.store.change(actor, async (change) => {
    const current = await lockBudget(change, options.id);
    const snapshot = await resolveBudgetWrite(change, current, options);
    return (await budgetsTable.update(change, current.id, snapshot))!;
  });
}

export async function lockBudget(change: UserChange, id: string): Promise<Budget> {
  const current = await budgetsTable.findById(change, id, { forUpdate: true });
  if (!current) throw notFound('Budget', id);
  return current;
}

/** The state a write leaves: merged under the write rule, validated, references checked. */
export async function resolveBudgetWrite(
  change: UserChange,
  current: Budget,
  options: UpdateBudgetOptions,
): Promise<BudgetSnapshot> {
  const merged = await resolveWrite({
    current: budgetsTable.options.toSnapshot(current),
    currentModified: current.modifiedAt,
    clientModified: options.clientModified,
    intended: options.intended,
    loadRevision: (at) => budgetsTable.findRevision(change, current.id, at),
    presentCurrent: () => options.presentCurrent(current),
  });
  const body = options.parseState(merged);
  assertExtraSize(body.extra);
  assertBudgetRules(body);
  const snapshot = budgetSnapshotOf(body, { order: current.order });
  await assertReferences(change, snapshot, current);
  return snapshot;
}

export async function deleteBudget(deps: BudgetsDeps, actor: Actor, id: string): Promise<void> {
  const deleted = await deps.store.change(actor, (change) => budgetsTable.softDelete(change, [id]));
  if (!deleted) throw notFound('Budget', id);
}

/** POST /budgets/reorder: the listed budgets first, in that order, then the rest as they were. */
export async function reorderBudgets(deps: BudgetsDeps, change: UserChange, order: string[]): Promise<void> {
  const current = await deps.budgets.idsInOrder(change);
  await writeDisplayOrder(budgetsTable, change, reorderedIds(current, order, 'budgets'));
}

/** POST /budgets/{id}/move: one budget at `position` (0 = first; past the end = last). */
export async function moveBudget(
  deps: BudgetsDeps,
  change: UserChange,
  id: string,
  position: number,
): Promise<void> {
  const current = await deps.budgets.idsInOrder(change);
  if (!current.includes(id)) throw notFound('Budget', id);
  await writeDisplayOrder(budgetsTable, change, movedIds(current, id, position));
}
