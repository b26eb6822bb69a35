import { notFound } from '@pfs/errors';
import { accountMergeHooks, accountsTable, withUserChange } from '@pfs/resource-store';
import type { EntityManager } from 'typeorm';
import { draftOfEntry } from '../entries/entry-draft';
import { EntryWriter } from '../entries/entry-writer';
import type { LedgerDeps } from '../../ledger-deps';
import { movedIds, reorderedIds, writeDisplayOrder } from '../ordering/display-order';

/** POST /accounts/reorder: the listed accounts first, in that order, then the rest as they were. */
export async function reorderAccounts(deps: LedgerDeps, userId: string, order: string[]): Promise<void> {
  await withUserChange(deps.dataSource, userId, async (manager, changeSeq) => {
    const current = (await deps.accounts.listInOrder(manager, userId)).map((account) => account.id);
    const ids = reorderedIds(current, order, 'accounts');
    await writeDisplayOrder(accountsTable, manager, { userId, changeSeq, ids });
  });
}

/** POST /accounts/{id}/move: puts one account at `position` (0 = first; past the end = last). */
export async function moveAccount(
  deps: LedgerDeps,
  userId: string,
  id: string,
  position: number,
): Promise<void> {
  await withUserChange(deps.dataSource, userId, async (manager, changeSeq) => {
    const current = (await deps.accounts.listInOrder(manager, userId)).map((account) => account.id);
    if (!current.includes(id)) throw notFound('Account', id);
    await writeDisplayOrder(accountsTable, manager, {
      userId,
      changeSeq,
      ids: movedIds(current, id, position),
    });
  });
}

/**
 * POST /accounts/merge: every entry of `sources` moves to `target` (re-rated to its currency with the ECB
 * rate of each entry's date when currencies differ), then the sources are deleted. One transaction.
 */
export async function mergeAccounts(
  deps: LedgerDeps,
  userId: string,
  sources: string[],
  target: string,
): Promise<number> {
  return withUserChange(deps.dataSource, userId, async (manager, changeSeq) => {
    const all = [...new Set([...sources, target])];
    const found = await deps.accounts.lockAccounts(manager, userId, all);
    const missing = all.find((id) => !found.some((account) => account.id === id));
    if (missing) throw notFound('Account', missing);
    const from = sources.filter((id) => id !== target);
    const targetCurrency = found.find((account) => account.id === target)!.currency;
    const moved = found.every((account) => account.currency === targetCurrency)
      ? await moveInBulk(deps, manager, { userId, from, target, changeSeq })
      : await moveOneByOne(deps, manager, { userId, from, target, changeSeq });
    await deps.entries.unlinkTransfersWithin(manager, userId, target, changeSeq);
    for (const hook of accountMergeHooks)
      await hook(manager, { userId, fromIds: from, toId: target, changeSeq });
    await manager.query(
      `UPDATE accounts SET parent_id = NULL, change_seq = $2 WHERE parent_id = ANY($1::bigint[])`,
      [from, changeSeq],
    );
    await accountsTable.softDelete(manager, userId, from, changeSeq);
    return moved;
  });
}

interface MoveOptions {
  userId: string;
  from: string[];
  target: string;
  changeSeq: string;
}

/** One currency everywhere: rates stay right, so one UPDATE moves them all and the totals are recounted. */
async function moveInBulk(deps: LedgerDeps, manager: EntityManager, options: MoveOptions): Promise<number> {
  const moved = await deps.entries.moveEntriesOfAccounts(manager, {
    userId: options.userId,
    fromIds: options.from,
    toId: options.target,
    changeSeq: options.changeSeq,
  });
  for (const id of [...options.from, options.target]) {
    await deps.accounts.recomputeEntriesTotal(manager, id, options.changeSeq);
  }
  return moved;
}

/** Currencies differ: each entry is re-rated into the target's currency on its own date. */
async function moveOneByOne(deps: LedgerDeps, manager: EntityManager, options: MoveOptions): Promise<number> {
  const { userId, from, target, changeSeq } = options;
  const writer = new EntryWriter(deps, manager, userId, changeSeq);
  await writer.loadAccounts([...from, target]);
  const entries = await deps.entries.lockEntriesOfAccounts(manager, userId, from);
  for (const entry of entries) {
    const draft = draftOfEntry(entry);
    draft.account = target;
    draft.currency = { ...draft.currency, rate: undefined };
    await writer.replace(entry, writer.toSnapshot(draft, '', entry.transactionId ?? undefined));
  }
  return entries.length;
}
