import { isResourceId } from '@pfs/contracts';
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

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function readIds(value: unknown, field: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length > 500 || !value.every(isResourceId)) {
    throw inputError([{ field, error: 'must be an array of ids' }]);
  }
  return value as string[];
}

/** Validates the body of POST /entries/manage (one `with`, at least one of set/add/remove). */
export function readManageRequest(body: unknown): ManageRequest {
  if (!isObject(body) || !isObject(body.with)) throw inputError([{ field: 'with', error: 'is required' }]);
  const selection = {
    tags: readIds(body.with.tags, 'with.tags'),
    accounts: readIds(body.with.accounts, 'with.accounts'),
    categories: readIds(body.with.categories, 'with.categories'),
    description: typeof body.with.description === 'string' ? body.with.description : undefined,
  };
  if (!selection.tags && !selection.accounts && !selection.categories && !selection.description) {
    throw inputError([{ field: 'with', error: 'must name tags, accounts, categories or description' }]);
  }
  const set = isObject(body.set) ? body.set : undefined;
  const request: ManageRequest = {
    with: selection,
    set: set && {
      tags: readIds(set.tags, 'set.tags'),
      account: set.account === undefined ? undefined : readIds([set.account], 'set.account')![0],
      category: set.category === undefined ? undefined : readIds([set.category], 'set.category')![0],
    },
    add: isObject(body.add) ? { tags: readIds(body.add.tags, 'add.tags') } : undefined,
    remove: isObject(body.remove) ? { tags: readIds(body.remove.tags, 'remove.tags') } : undefined,
  };
  if (!request.set && !request.add?.tags && !request.remove?.tags) {
    throw inputError([{ field: 'set', error: 'one of set, add or remove is required' }]);
  }
  return request;
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
