import { mergeAccounts as mergeAccountsIn } from '../../src/modules/accounts/account-order.use-case';
import { createAccount as createAccountIn } from '../../src/modules/accounts/account-use-cases';
import type { AccountBody } from '../../src/modules/accounts/accounts.schema';
import {
  createEntries as createEntriesIn,
  type CreateEntriesOptions,
} from '../../src/modules/entries/create-entries.use-case';
import type { EntryDraft } from '../../src/modules/entries/entry-draft';
import type { LedgerDeps } from '../../src/ledger-deps';
import {
  type ManageRequest,
  manageEntries as manageEntriesIn,
} from '../../src/modules/entries/manage-entries.use-case';

/**
 * The ledger use cases that run inside a caller's change (the idempotent POSTs), called the way their route
 * calls them without an Idempotency-Key: one change of the user each.
 */
export const createAccount = (deps: LedgerDeps, userId: string, body: AccountBody) =>
  deps.store.change({ userId: userId }, (change) => createAccountIn(deps, change, body));

export const createEntries = (
  deps: LedgerDeps,
  userId: string,
  drafts: EntryDraft[],
  options: CreateEntriesOptions = {},
) => deps.store.change({ userId: userId }, (change) => createEntriesIn(deps, change, drafts, options));

export const mergeAccounts = (deps: LedgerDeps, userId: string, sources: string[], target: string) =>
  deps.store.change({ userId: userId }, (change) => mergeAccountsIn(deps, change, sources, target));

export const manageEntries = (deps: LedgerDeps, userId: string, request: ManageRequest) =>
  deps.store.change({ userId: userId }, (change) => manageEntriesIn(deps, change, request));
