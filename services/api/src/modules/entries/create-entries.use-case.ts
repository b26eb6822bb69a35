import { inputError } from '@pfs/errors';
import type { Entry, UserChange } from '@pfs/resource-store';
import type { EntryDraft } from './entry-draft';
import { EntryWriter } from './entry-writer';
import type { LedgerDeps } from '../../ledger-deps';

/** The most entries one batch may create. */
export const MAX_BATCH = 500;

export interface CreateEntriesOptions {
  /** The drafts came as a JSON array (`POST /entries` with a batch): errors name `<index>.<field>`. */
  fieldsByIndex?: boolean;
}

/**
 * Creates one or many entries in one change: every account, category and tag is checked first, and any
 * failure creates nothing (the change rolls back). Transfers create their companion entries in the same change.
 */
export async function createEntries(
  deps: LedgerDeps,
  change: UserChange,
  drafts: EntryDraft[],
  options: CreateEntriesOptions = {},
): Promise<Entry[]> {
  if (drafts.length > MAX_BATCH)
    throw inputError([{ field: '(body)', error: `must hold at most ${MAX_BATCH} entries` }]);
  const writer = new EntryWriter(deps, change);
  const items = drafts.map((draft, index) => ({ draft, prefix: options.fieldsByIndex ? `${index}.` : '' }));
  await writer.loadAccounts(
    drafts.flatMap((draft) => [draft.account, ...(draft.transaction ? [draft.transaction.account] : [])]),
  );
  const errors = await writer.checkReferences(items);
  if (errors.length) throw inputError(errors);
  // A batch without transfers is written in a few statements; a transfer (two linked entries) one by one.
  if (items.length > 1 && items.every(({ draft }) => !draft.transaction)) return writer.insertAll(items);
  const created: Entry[] = [];
  for (const { draft, prefix } of items) created.push(await writer.insert(draft, prefix));
  return created;
}
