import type { Entry, UserChange } from '@pfs/resource-store';
import type { EntryWriter } from '../entries/entry-writer';
import type { LedgerDeps } from '../../ledger-deps';

/** What one series write works with, inside one change. */
export interface SeriesContext {
  deps: LedgerDeps;
  change: UserChange;
  writer: EntryWriter;
  today: string;
}

/** Soft-deletes occurrences and their transfer companions; balances move back. */
export async function removeWithCompanions(context: SeriesContext, rows: Entry[]): Promise<void> {
  if (!rows.length) return;
  const companionIds = rows.flatMap((row) => (row.transactionId ? [row.transactionId] : []));
  const companions = await context.deps.entries.table.findByIds(context.change, companionIds);
  await context.writer.remove([...rows, ...companions]);
}
