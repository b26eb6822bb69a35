import type { Actor } from '@pfs/resource-store';
import { notFound } from '@pfs/errors';
import { EntryWriter } from './entry-writer';
import type { LedgerDeps } from '../../ledger-deps';

/** Soft-deletes an entry and, for a transfer, its companion; both balances move back. */
export async function deleteEntry(deps: LedgerDeps, actor: Actor, id: string): Promise<void> {
  await deps.store.change(actor, async (change) => {
    const entry = await deps.entries.table.findById(change, id, { forUpdate: true });
    if (!entry) throw notFound('Entry', id);
    const companion = entry.transactionId
      ? await deps.entries.table.findById(change, entry.transactionId, { forUpdate: true })
      : undefined;
    const writer = new EntryWriter(deps, change);
    await writer.remove(companion ? [entry, companion] : [entry]);
  });
}
