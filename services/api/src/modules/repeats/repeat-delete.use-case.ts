import type { Actor } from '@pfs/resource-store';
import { notFound } from '@pfs/errors';
import { deleteEntry } from '../entries/delete-entry.use-case';
import { EntryWriter } from '../entries/entry-writer';
import type { LedgerDeps } from '../../ledger-deps';
import { removeWithCompanions } from './repeat-context';
import type { SeriesScope } from './repeat-edit.use-case';
import { addDays, dateOfIteration } from './repeat-rule';
import { saveProgress, userToday } from './repeat-series.use-case';

/**
 * `DELETE /entries/{id}?delete=all|one|tail`. `one` (or an entry outside a series) is the ordinary
 * delete: the occurrence stays deleted, later runs never recreate it. `all` deletes every occurrence and
 * ends the series; `tail` deletes this and the later occurrences and ends the series the day before.
 */
export async function deleteSeriesEntry(
  deps: LedgerDeps,
  actor: Actor,
  id: string,
  scope: SeriesScope,
): Promise<void> {
  const entry = await deps.entries.table.findById(deps.store.read(actor), id);
  if (!entry) throw notFound('Entry', id);
  if (!entry.repeatId || scope === 'one') return deleteEntry(deps, actor, id);
  await deps.store.change(actor, async (change) => {
    // Read again under the user's write lock: a split committed meanwhile may have moved the entry to
    // another series (and renumbered it), so both the series and the iteration come from this read.
    const current = await deps.entries.table.findById(change, id, { forUpdate: true });
    if (!current) throw notFound('Entry', id);
    const writer = new EntryWriter(deps, change);
    const today = await userToday(deps.repeats, change);
    const context = { deps, change, writer, today };
    const series = current.repeatId ? await deps.repeats.lock(change, current.repeatId) : undefined;
    if (!series) {
      await removeWithCompanions(context, [current]);
      return;
    }
    const k = scope === 'all' ? 0 : (current.iteration ?? 0);
    await removeWithCompanions(context, await deps.repeats.lockOccurrences(change, series.id, k));
    if (k === 0) {
      series.deleted = true;
      await saveProgress(deps, change, series, { next: series.nextIteration, today });
    } else {
      const { count: _count, ...rule } = series.rule;
      series.rule = { ...rule, end: addDays(dateOfIteration(series.rule, k) ?? current.date, -1) };
      await saveProgress(deps, change, series, { next: Math.min(series.nextIteration, k), today });
      await deps.repeats.touchOccurrences(change, series.id);
    }
  });
}
