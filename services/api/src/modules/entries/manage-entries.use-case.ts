import { inputError } from '@pfs/errors';
import type { UserChange } from '@pfs/resource-store';
import { draftOfEntry } from './entry-draft';
import { EntryWriter } from './entry-writer';
import type { LedgerDeps } from '../../ledger-deps';

/** The most entries one manage call changes: it runs in one transaction. */
export const MAX_MANAGED = 10_000;

export interface ManageRequest {
  with: { tags?: string[]; accounts?: string[]; categories?: string[]; description?: string };
  set?: { tags?: string[]; account?: string; category?: string };
  add?: { tags?: string[] };
  remove?: { tags?: string[] };
}

/** Applies a bulk change to every live entry matching `with`, in one change with balances kept right. */
export async function manageEntries(
  deps: LedgerDeps,
  change: UserChange,
  request: ManageRequest,
): Promise<number> {
  const matching = await deps.entries.findMatching(change, request.with, MAX_MANAGED + 1);
  if (matching.length > MAX_MANAGED)
    throw inputError([{ field: 'with', error: `matches more than ${MAX_MANAGED} entries` }]);
  const writer = new EntryWriter(deps, change);
  const drafts = matching.map((entry) => {
    const draft = draftOfEntry(entry);
    let tags = request.set?.tags ?? draft.tags;
    if (request.add?.tags) tags = [...new Set([...tags, ...request.add.tags])];
    if (request.remove?.tags) tags = tags.filter((tag) => !request.remove!.tags!.includes(tag));
    draft.tags = tags;
    if (request.set?.category) draft.category = request.set.category;
    if (request.set?.account && request.set.account !== draft.account) {
      draft.account = request.set.account;
      draft.currency = { ...draft.currency, rate: undefined };
    }
    return { entry, draft };
  });
  await writer.loadAccounts(drafts.map(({ draft }) => draft.account));
  const errors = await writer.checkReferences(drafts.slice(0, 1).map(({ draft }) => ({ draft, prefix: '' })));
  if (errors.length) throw inputError(errors.map((error) => ({ ...error, field: `set.${error.field}` })));
  for (const { entry, draft } of drafts)
    await writer.replace(entry, writer.toSnapshot(draft, '', entry.transactionId ?? undefined));
  if (request.set?.account) {
    await deps.entries.unlinkTransfersWithin(change, request.set.account);
  }
  return drafts.length;
}
