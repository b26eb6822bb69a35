import { AppError, inputError, notFound } from '@pfs/errors';
import { assertExtraSize, resolveWrite } from '@pfs/resource-api';
import type { Actor, Account, Snapshot, UserChange } from '@pfs/resource-store';
import type { LedgerDeps } from '../../ledger-deps';
import { accountSnapshotOf, assertAccountRules } from './account-rules';
import type { AccountBody } from './accounts.schema';

async function assertParent(deps: LedgerDeps, change: UserChange, parent: unknown, self?: string) {
  if (parent === undefined) return;
  const found = await deps.accounts.table.findById(change, String(parent));
  if (!found || parent === self)
    throw inputError([{ field: 'parent', error: 'must be another of your accounts' }]);
}

export async function createAccount(
  deps: LedgerDeps,
  change: UserChange,
  body: AccountBody,
): Promise<Account> {
  assertAccountRules(body);
  const snapshot = accountSnapshotOf(body, { order: await deps.accounts.nextOrder(change) });
  await assertParent(deps, change, snapshot.parent);
  return deps.accounts.table.insert(change, snapshot);
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
  actor: Actor,
  options: UpdateAccountOptions,
): Promise<Account> {
  const accounts = deps.accounts.table;
  return deps.store.change(actor, async (change) => {
    const current = await accounts.findById(change, options.id, { forUpdate: true });
    if (!current) throw notFound('Account', options.id);
    const merged = await resolveWrite({
      current: accounts.options.toSnapshot(current),
      currentModified: current.modifiedAt,
      clientModified: options.clientModified,
      intended: options.intended,
      loadRevision: (at) => accounts.findRevision(change, current.id, at),
      presentCurrent: () => options.presentCurrent(current),
    });
    assertExtraSize(merged.extra);
    const body = options.parseState(merged);
    assertAccountRules(body);
    const snapshot = accountSnapshotOf(body, { order: current.order });
    await assertParent(deps, change, snapshot.parent, current.id);
    if (snapshot.currency.code !== current.currency && (await deps.accounts.hasEntries(change, current.id))) {
      throw inputError([{ field: 'currency.code', error: 'cannot change while the account has entries' }]);
    }
    return (await accounts.update(change, current.id, snapshot))!;
  });
}

/**
 * Deletes an account together with its entries (soft delete). A transfer's companion in another account
 * stays there as a plain entry: that account really received or sent the money. The last account cannot go.
 */
export async function deleteAccount(
  deps: LedgerDeps,
  actor: Actor,
  id: string,
): Promise<{ deletedEntries: number }> {
  return deps.store.change(actor, async (change) => {
    const [account] = await deps.accounts.lockAccounts(change, [id]);
    if (!account) throw notFound('Account', id);
    if ((await deps.accounts.countLive(change)) <= 1) {
      throw new AppError('UNPROCESSABLE', {
        description: 'The last account cannot be deleted: every entry needs an account.',
      });
    }
    const deletedEntries = await deps.entries.deleteEntriesOfAccount(change, id);
    await deps.accounts.detachChildren(change, [id]);
    await deps.accounts.table.softDelete(change, [id]);
    return { deletedEntries };
  });
}
