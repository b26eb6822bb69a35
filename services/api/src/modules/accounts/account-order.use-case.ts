import { notFound } from '@pfs/errors';
import { accountMergeHooks, type UserChange } from '@pfs/resource-store';
import { draftOfEntry } from '../entries/entry-draft';
import { EntryWriter } from '../entries/entry-writer';
import type { LedgerDeps } from '../../ledger-deps';
import { movedIds, reorderedIds, writeDisplayOrder } from '../ordering/display-order';

/** POST /accounts/reorder: the listed accounts first, in that order, then the rest as they were. */
export async function reorderAccounts(deps: LedgerDeps, change: UserChange, order: string[]): Promise<void> {
  const current = (await deps.accounts.listInOrder(change)).map((account) => account.id);
  await writeDisplayOrder(deps.accounts.table, change, reorderedIds(current, order, 'accounts'));
}

/** POST /accounts/{id}/move: puts one account at `position` (0 = first; past the end = last). */
export async function moveAccount(
  deps: LedgerDeps,
  change: UserChange,
  id: string,
  position: number,
): Promise<void> {
  const current = (await deps.accounts.listInOrder(change)).map((account) => account.id);
  if (!current.includes(id)) throw notFound('Account', id);
  await writeDisplayOrder(deps.accounts.table, change, movedIds(current, id, position));
}

/**
 * POST /accounts/merge: every entry of `sources` moves to `target` (re-rated to its currency with the ECB
 * rate of each entry's date when currencies differ), then the sources are deleted. One change.
 */
export async function mergeAccounts(
  deps: LedgerDeps,
  change: UserChange,
  sources: string[],
  target: string,
): Promise<number> {
  const all = [...new Set([...sources, target])];
  const found = await deps.accounts.lockAccounts(change, all);
  const missing = all.find((id) => !found.some((account) => account.id === id));
  if (missing) throw notFound('Account', missing);
  const from = sources.filter((id) => id !== target);
  const targetCurrency = found.find((account) => account.id === target)!.currency;
  const moved = found.every((account) => account.currency === targetCurrency)
    ? await moveInBulk(deps, change, from, target)
    : await moveOneByOne(deps, change, from, target);
  await deps.entries.unlinkTransfersWithin(change, target);
  for (const hook of accountMergeHooks) await hook(change, { fromIds: from, toId: target });
  await deps.accounts.detachChildren(change, from);
  await deps.accounts.table.softDelete(change, from);
  return moved;
}

/** One currency everywhere: rates stay right, so one UPDATE moves them all and the totals are recounted. */
async function moveInBulk(
  deps: LedgerDeps,
  change: UserChange,
  from: string[],
  target: string,
): Promise<number> {
  const moved = await deps.entries.moveEntriesOfAccounts(change, from, target);
  for (const id of [...from, target]) await deps.accounts.recomputeEntriesTotal(change, id);
  return moved;
}

/** Currencies differ: each entry is re-rated into the target's currency on its own date. */
async function moveOneByOne(
  deps: LedgerDeps,
  change: UserChange,
  from: string[],
  target: string,
): Promise<number> {
  const writer = new EntryWriter(deps, change);
  await writer.loadAccounts([...from, target]);
  const entries = await deps.entries.lockEntriesOfAccounts(change, from);
  for (const entry of entries) {
    const draft = draftOfEntry(entry);
    draft.account = target;
    draft.currency = { ...draft.currency, rate: undefined };
    await writer.replace(entry, writer.toSnapshot(draft, '', entry.transactionId ?? undefined));
  }
  return entries.length;
}
