import { type Entry, entriesTable } from '@pfs/resource-store';
import type { EntityManager } from 'typeorm';
import type { EntryWriter } from '../entries/entry-writer';
import type { LedgerDeps } from '../../ledger-deps';

/** What one series write works with, inside one change transaction. */
export interface SeriesContext {
  deps: LedgerDeps;
  manager: EntityManager;
  writer: EntryWriter;
  userId: string;
  changeSeq: string;
  today: string;
}

/** Soft-deletes occurrences and their transfer companions; balances move back. */
export async function removeWithCompanions(context: SeriesContext, rows: Entry[]): Promise<void> {
  if (!rows.length) return;
  const companionIds = rows.flatMap((row) => (row.transactionId ? [row.transactionId] : []));
  const companions = await entriesTable.findByIds(context.manager, context.userId, companionIds);
  await context.writer.remove([...rows, ...companions]);
}
