import { notFound } from '@pfs/errors';
import { entriesTable, withUserChange } from '@pfs/resource-store';
import { deleteEntry } from '../entries/delete-entry.use-case';
import { EntryWriter } from '../entries/entry-writer';
import type { LedgerDeps } from '../../ledger-deps';
import { removeWithCompanions } from './repeat-context';
import type { SeriesScope } from './repeat-edit.use-case';
import { addDays, dateOfIteration } from './repeat-rule';
import { repeats, saveProgress, userToday } from './repeat-series.use-case';

/**
 * `DELETE /entries/{id}?delete=all|one|tail`. `one` (or an entry outside a series) is the ordinary
 * delete: the occurrence stays deleted, later runs never recreate it. `all` deletes every occurrence and
 * ends the series; `tail` deletes this and the later occurrences and ends the series the day before.
 */
export async function deleteSeriesEntry(
  deps: LedgerDeps,
  userId: string,
  id: string,
  scope: SeriesScope,
): Promise<void> {
  const entry = await entriesTable.findById(deps.dataSource, userId, id);
  if (!entry) throw notFound('Entry', id);
  if (!entry.repeatId || scope === 'one') return deleteEntry(deps, userId, id);
  await withUserChange(deps.dataSource, userId, async (manager, changeSeq) => {
    // Read again under the user's write lock: a split committed meanwhile may have moved the entry to
    // another series (and renumbered it), so both the series and the iteration come from this read.
    const current = await entriesTable.findById(manager, userId, id, { forUpdate: true });
    if (!current) throw notFound('Entry', id);
    const writer = new EntryWriter(deps, manager, userId, changeSeq);
    const today = await userToday(manager, userId);
    const context = { deps, manager, writer, userId, changeSeq, today };
    const series = current.repeatId ? await repeats.lock(manager, userId, current.repeatId) : undefined;
    if (!series) {
      await removeWithCompanions(context, [current]);
      return;
    }
    const k = scope === 'all' ? 0 : (current.iteration ?? 0);
    await removeWithCompanions(context, await repeats.lockOccurrences(manager, userId, series.id, k));
    if (k === 0) {
      series.deleted = true;
      await saveProgress(manager, series, { next: series.nextIteration, today });
    } else {
      const { count: _count, ...rule } = series.rule;
      series.rule = { ...rule, end: addDays(dateOfIteration(series.rule, k) ?? current.date, -1) };
      await saveProgress(manager, series, { next: Math.min(series.nextIteration, k), today });
      await repeats.touchOccurrences(manager, userId, series.id, changeSeq);
    }
  });
}
