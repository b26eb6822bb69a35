import { formatAmount, parseAmount } from '@pfs/money';
import type { Snapshot } from '@pfs/resource-store';
import type { SchemaRegistry } from '@pfs/resource-api';
import type { EntryBody } from './entry-body.schema';
import { assertTransactionRules, transactionDraftOf } from './entry-draft';
import type { TransferIntent } from './update-entry.use-case';

const canonicalAmount = (value: unknown) => {
  const amount = parseAmount(value);
  return amount ? formatAmount(amount) : value;
};

/**
 * Puts a client's entry state in the stored snapshot's form (amounts as exact decimal text, defaults
 * filled), so a three-way merge compares like with like and sees only real changes.
 */
export function canonicalEntryState(state: Snapshot): Snapshot {
  const out: Snapshot = { ...state, completed: state.completed === true };
  if (state.amount !== undefined) out.amount = canonicalAmount(state.amount);
  const currency = state.currency as Record<string, unknown> | undefined;
  if (currency) {
    out.currency = {
      code: currency.code,
      ...(currency.rate !== undefined ? { rate: canonicalAmount(currency.rate) } : {}),
      fixed: currency.fixed === true,
    };
  }
  // Attached images are their ids: what a fetched entry sent back carries besides (path, …) is read-only.
  if (Array.isArray(state.images)) {
    out.images = state.images.map((image) => ({ id: (image as { id?: unknown })?.id }));
  }
  delete out.transaction;
  // A series' rule is not entry state: the update reads it from the body (repeat-edit.use-case.ts).
  delete out.repeat;
  return out;
}

/**
 * What the write asks of the transfer. PUT is a full representation: no `transaction` removes it.
 * PATCH leaves it unless the patch names it (null removes it).
 */
export function readTransferIntent(
  mode: 'put' | 'patch',
  rawBody: unknown,
  normalized: Snapshot,
  schemas: SchemaRegistry,
): TransferIntent {
  const raw = rawBody as Record<string, unknown>;
  if (mode === 'patch' && !('transaction' in raw)) return 'keep';
  if (!normalized.transaction) return 'remove';
  // The merged state leaves the transfer out: its member of the published schema checks it on its own.
  const transaction = schemas.parseMember<NonNullable<EntryBody['transaction']>>(
    'entries',
    'transaction',
    normalized.transaction,
  );
  assertTransactionRules(transaction);
  return transactionDraftOf(transaction);
}
