import { inputError, notFound } from '@pfs/errors';
import { Decimal, roundToCurrency } from '@pfs/money';
import { assertExtraSize, resolveWrite } from '@pfs/resource-api';
import type { Actor, Entry, Snapshot, UserChange } from '@pfs/resource-store';
import type { EntryBody } from './entry-body.schema';
import { assertEntryRules, type EntryDraft, entryDraftOf } from './entry-draft';
import { EntryWriter } from './entry-writer';
import type { LedgerDeps } from '../../ledger-deps';

/** What the write asks of the transfer: leave it, remove it, or (re)point it at an account. */
export type TransferIntent = 'keep' | 'remove' | NonNullable<EntryDraft['transaction']>;

export interface UpdateEntryOptions {
  id: string;
  clientModified: Date;
  /** The client's intended writable state, from the state it edited (PUT: the body; PATCH: patched). */
  intended: (edited: Snapshot) => Snapshot;
  transfer: TransferIntent;
  /** Validates the merged state against the published schema (the route's registry). */
  parseState: (state: Snapshot) => EntryBody;
  presentCurrent: (entry: Entry) => unknown;
}

/** Fields the server derives: never part of a merge, recomputed on every write. */
// main_rate: revisions written before it stopped being stored may still carry it.
const DERIVED = ['account_amount', 'main_rate', 'transaction'];
const mergeable = (snapshot: Snapshot): Snapshot =>
  Object.fromEntries(Object.entries(snapshot).filter(([key]) => !DERIVED.includes(key)));

/**
 * Updates an entry under the conventions' write rule (current modified, three-way merge or 409), then
 * keeps its balances and its transfer companion in step, all in one transaction.
 */
export async function updateEntry(
  deps: LedgerDeps,
  actor: Actor,
  options: UpdateEntryOptions,
): Promise<Entry> {
  return deps.store.change(actor, async (change) => {
    const { entry } = await applyEntryUpdate(new EntryWriter(deps, change), deps, change, options);
    return entry;
  });
}

/**
 * The steps of `updateEntry` inside the caller's change (a repeating series' edit continues
 * in the same one). Also answers the entry before the write and the draft written, transfer resolved.
 */
export async function applyEntryUpdate(
  writer: EntryWriter,
  deps: LedgerDeps,
  change: UserChange,
  options: UpdateEntryOptions,
): Promise<{ entry: Entry; before: Entry; draft: EntryDraft }> {
  const entriesTable = deps.entries.table;
  const current = await entriesTable.findById(change, options.id, { forUpdate: true });
  if (!current) throw notFound('Entry', options.id);
  const currentState = mergeable(entriesTable.options.toSnapshot(current));
  const merged = await resolveWrite({
    current: currentState,
    currentModified: current.modifiedAt,
    clientModified: options.clientModified,
    intended: (edited) => mergeable(options.intended(edited)),
    loadRevision: async (at) => {
      const revision = await entriesTable.findRevision(change, current.id, at);
      return revision && mergeable(revision);
    },
    presentCurrent: () => options.presentCurrent(current),
  });
  assertExtraSize(merged.extra);
  const body = options.parseState(dropStaleRate(merged, currentState));
  assertEntryRules(body);
  const draft = entryDraftOf(body);
  const companion = current.transactionId
    ? await entriesTable.findById(change, current.transactionId, { forUpdate: true })
    : undefined;
  const transfer = resolveTransfer(options.transfer, companion, current, draft);
  draft.transaction = transfer;
  await writer.loadAccounts([draft.account, ...(transfer ? [transfer.account] : [])]);
  const errors = await writer.checkReferences([{ draft, prefix: '' }]);
  if (errors.length) throw inputError(errors);
  const entry = await writeInStep(writer, deps, change, { current, companion, draft });
  return { entry, before: current, draft };
}

/** A rate is for one currency pair: when the currency or account changed and the client kept the old rate, re-derive it. */
function dropStaleRate(merged: Snapshot, current: Snapshot): Snapshot {
  const currency = merged.currency as { code: string; rate?: string } | undefined;
  const previous = current.currency as { code: string; rate: string };
  const pairChanged = merged.account !== current.account || currency?.code !== previous.code;
  if (!currency || !pairChanged || currency.rate !== previous.rate) return merged;
  return { ...merged, currency: { ...currency, rate: undefined } };
}

/**
 * The transfer the write leaves. An explicit `transaction` whose amount and currency are the companion's
 * current ones (a fetched object sent back) is no change. Unchanged, the companion follows the entry: it
 * mirrors it when it moved the same money in the same currency, else it keeps its currency and the
 * exchange ratio the two sides had.
 */
function resolveTransfer(
  intent: TransferIntent,
  companion: Entry | undefined,
  current: Entry,
  draft: EntryDraft,
): EntryDraft['transaction'] {
  if (intent === 'remove') return undefined;
  if (intent !== 'keep' && !(companion && isResentCompanion(intent, companion))) return intent;
  if (!companion) return undefined;
  const account = intent === 'keep' ? companion.accountId : intent.account;
  const mirrored =
    companion.currency === current.currency &&
    new Decimal(companion.amount).abs().equals(new Decimal(current.amount).abs());
  if (mirrored || new Decimal(current.amount).isZero()) return { account };
  const ratio = new Decimal(companion.amount).abs().dividedBy(new Decimal(current.amount).abs());
  return {
    account,
    amount: roundToCurrency(draft.amount.abs().times(ratio), companion.currency),
    currency: { code: companion.currency },
  };
}

function isResentCompanion(intent: NonNullable<EntryDraft['transaction']>, companion: Entry): boolean {
  const sameAmount = !intent.amount || intent.amount.abs().equals(new Decimal(companion.amount).abs());
  const sameCurrency = !intent.currency || intent.currency.code === companion.currency;
  return sameAmount && sameCurrency;
}

/** Writes an entry's new draft and keeps its transfer companion in step (created, moved or removed). */
export async function writeInStep(
  writer: EntryWriter,
  deps: LedgerDeps,
  change: UserChange,
  state: { current: Entry; companion?: Entry; draft: EntryDraft },
): Promise<Entry> {
  const { current, companion, draft } = state;
  if (companion && !draft.transaction) {
    await writer.remove([companion]);
    return writer.replace(current, writer.toSnapshot(draft, ''));
  }
  if (!draft.transaction) return writer.replace(current, writer.toSnapshot(draft, ''));
  if (companion) {
    const companionSnapshot = writer.toSnapshot(writer.companionDraft(draft), 'transaction.', current.id);
    await writer.replace(companion, companionSnapshot);
    return writer.replace(current, writer.toSnapshot(draft, '', companion.id));
  }
  const updated = await writer.replace(current, writer.toSnapshot(draft, ''));
  const created = await writer.insert({ ...writer.companionDraft(draft) }, 'transaction.');
  await deps.entries.linkPair(change, updated.id, created.id);
  return { ...updated, transactionId: created.id };
}
