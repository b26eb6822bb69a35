import { AppError, inputError, notFound } from '@pfs/errors';
import { assertExtraSize, resolveWrite } from '@pfs/resource-api';
import { type Account, accountsTable, type Snapshot, withUserChange } from '@pfs/resource-store';
import type { EntityManager } from 'typeorm';
import type { LedgerDeps } from '../../ledger-deps';
import { accountSnapshotOf, assertAccountRules } from './account-rules';
import type { AccountBody } from './accounts.schema';

async function assertParent(
  deps: LedgerDeps,
  manager: EntityManager,
  userId: string,
  parent: unknown,
  self?: string,
) {
  if (parent === undefined) return;
  const found = await deps.accounts.table.findById(manager, userId, String(parent));
  if (!found || parent === self)
    throw inputError([{ field: 'parent', error: 'must be another of your accounts' }]);
}

export async function createAccount(deps: LedgerDeps, userId: string, body: AccountBody): Promise<Account> {
  return withUserChange(deps.dataSource, userId, async (manager, changeSeq) => {
    assertAccountRules(body);
    const snapshot = accountSnapshotOf(body, { order: await deps.accounts.nextOrder(manager, userId) });
    await assertParent(deps, manager, userId, snapshot.parent);
    return deps.accounts.table.insert(manager, userId, changeSeq, snapshot);
  });
}

export interface UpdateAccountOptions {
  id: string;
  clientModified: Date;
  intended: (edited: Snapshot) => Snapshot;
  /** Validates the merged state against the published schema (the route's registry). */
  parseState: (state: Snapshot) => AccountBody;
  presentCurrent: (account: Account) => unknown;
}

/**
 * Updates an account under the write rule. Its currency is fixed once it has entries: every entry's
 * stored rate is to that currency, so changing it would silently change what the balance means.
 */
export async function updateAccount(
  deps: LedgerDeps,
  userId: string,
  options: UpdateAccountOptions,
): Promise<Account> {
  return withUserChange(deps.dataSource, userId, async (manager, changeSeq) => {
    const current = await accountsTable.findById(manager, userId, options.id, { forUpdate: true });
    if (!current) throw notFound('Account', options.id);
    const merged = await resolveWrite({
      current: accountsTable.options.toSnapshot(current),
      currentModified: current.modifiedAt,
      clientModified: options.clientModified,
      intended: options.intended,
      loadRevision: (at) => accountsTable.findRevision(manager, userId, current.id, at),
      presentCurrent: () => options.presentCurrent(current),
    });
    assertExtraSize(merged.extra);
    const body = options.parseState(merged);
    assertAccountRules(body);
    const snapshot = accountSnapshotOf(body, { order: current.order });
    await assertParent(deps, manager, userId, snapshot.parent, current.id);
    if (snapshot.currency.code !== current.currency && (await hasEntries(manager, current.id))) {
      throw inputError([{ field: 'currency.code', error: 'cannot change while the account has entries' }]);
    }
    return (await accountsTable.update(manager, userId, current.id, changeSeq, snapshot))!;
  });
}

async function hasEntries(manager: EntityManager, accountId: string): Promise<boolean> {
  const rows = await manager.query(`SELECT 1 FROM entries WHERE account_id = $1 AND NOT deleted LIMIT 1`, [
    accountId,
  ]);
  return rows.length > 0;
}

/**
 * Deletes an account together with its entries (soft delete). A transfer's companion in another account
 * stays there as a plain entry: that account really received or sent the money. The last account cannot go.
 */
export async function deleteAccount(
  deps: LedgerDeps,
  userId: string,
  id: string,
): Promise<{ deletedEntries: number }> {
  return withUserChange(deps.dataSource, userId, async (manager, changeSeq) => {
    const [account] = await deps.accounts.lockAccounts(manager, userId, [id]);
    if (!account) throw notFound('Account', id);
    if ((await deps.accounts.countLive(manager, userId)) <= 1) {
      throw new AppError('UNPROCESSABLE', {
        description: 'The last account cannot be deleted: every entry needs an account.',
      });
    }
    const deletedEntries = await deps.entries.deleteEntriesOfAccount(manager, userId, id, changeSeq);
    await manager.query(`UPDATE accounts SET parent_id = NULL, change_seq = $2 WHERE parent_id = $1`, [
      id,
      changeSeq,
    ]);
    await accountsTable.softDelete(manager, userId, [id], changeSeq);
    return { deletedEntries };
  });
}
