import { notFound } from '@pfs/errors';
import { entriesTable, withUserChange } from '@pfs/resource-store';
import { EntryWriter } from './entry-writer';
import type { LedgerDeps } from '../../ledger-deps';

/** Soft-deletes an entry and, for a transfer, its companion; both balances move back. */
export async function deleteEntry(deps: LedgerDeps, userId: string, id: string): Promise<void> {
  await withUserChange(deps.dataSource, userId, async (manager, changeSeq) => {
    const entry = await entriesTable.findById(manager, userId, id, { forUpdate: true });
    if (!entry) throw notFound('Entry', id);
    const companion = entry.transactionId
      ? await entriesTable.findById(manager, userId, entry.transactionId, { forUpdate: true })
      : undefined;
    const writer = new EntryWriter(deps, manager, userId, changeSeq);
    await writer.remove(companion ? [entry, companion] : [entry]);
  });
}
