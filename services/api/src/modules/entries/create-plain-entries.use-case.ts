import { inputError } from '@pfs/errors';
import { type Actor, type PlainEntriesCreated, plainEntriesInsert } from '@pfs/resource-store';
import type { LedgerDeps } from '../../ledger-deps';
import type { EntryDraft } from './entry-draft';
import { EntryDrafts } from './entry-drafts';
import type { KnownReferences } from './known-references';
import type { PlainEntryQueue } from './plain-entry-queue';

/**
 * Creates entries without a transfer or a series (one, or a batch) as a one-trip change: the references are
 * checked and each entry's stored state (rates, amounts in the account's currency) made on the pool, before
 * the user's write lock is taken; then one statement, in one round trip with its claim of the change sequence
 * and its commit, writes the entries, their revisions and the balances, re-checking the references under the
 * lock (plainEntriesInsert). Why: the lock serialises a user's writes, so what it is held for bounds a user's
 * writes per second; and each round trip costs the API a socket write. With a `queue`, the user's requests
 * that arrive while one of theirs is being written go together in the next change (PlainEntryQueue). With
 * `known`, the references the user's earlier writes found live are not read again (KnownReferences). Answers
 * `undefined` when a reference changed between the checks and the write: nothing was written, the user's
 * known references are forgotten, the caller takes the ordinary path.
 */
export async function createPlainEntries(
  deps: LedgerDeps,
  actor: Actor,
  drafts: EntryDraft[],
  options: { fieldsByIndex: boolean; queue?: PlainEntryQueue; known?: KnownReferences },
): Promise<PlainEntriesCreated | undefined> {
  const checks = new EntryDrafts(deps, deps.store.read(actor), options.known?.of(actor.userId));
  const items = drafts.map((draft, index) => ({ draft, prefix: options.fieldsByIndex ? `${index}.` : '' }));
  await checks.loadAccounts(drafts.map((draft) => draft.account));
  const errors = await checks.checkReferences(items);
  if (errors.length) throw inputError(errors);
  const writes = items.map(({ draft, prefix }) => ({
    snapshot: checks.toSnapshot(draft, prefix),
    accountCurrency: checks.account(draft.account).currency,
  }));
  const written = options.queue
    ? await options.queue.write(actor, writes)
    : await deps.store.changeInOneTrip(actor, plainEntriesInsert(actor, writes));
  if (!written) options.known?.forget(actor.userId);
  return written;
}
