import { type CustomRate, findUserCrossRate } from '@pfs/money';
import { type Entry, entriesTable, ImageRepository } from '@pfs/resource-store';
import type { ApiDependencies } from '../../dependencies';
import { ledgerDepsOf } from '../../ledger-deps';
import { presentEntryImage } from '../images/images.presenter';
import { seriesOf } from '../repeats/repeat-reads';
import { presentEntry } from './entries.presenter';

/** Presents entries as `GET /entries` does (companions, main rate, repeat); built per request. */
export type PresenterFor = (
  userId: string,
  entries: Entry[],
  /** The user's main currency and custom rates, when the caller already read them. */
  known?: { main: string; customRates: CustomRate[] },
) => Promise<(entry: Entry) => Record<string, unknown>>;

/**
 * Presents entries with their transfer companions and main-currency rates (one user read per request,
 * concurrent with the companions' read; a list passes the main currency it read beside its page).
 */
export function entryPresenterFor(deps: ApiDependencies): PresenterFor {
  const ledger = ledgerDepsOf(deps);
  const imageRepository = new ImageRepository(deps.dataSource);

  /** The live images of a page of entries, presented, in one query (none when no entry has images). */
  async function imagesOf(userId: string, entries: Entry[]): Promise<Map<string, Record<string, unknown>>> {
    const ids = entries.flatMap((entry) => entry.imageIds);
    if (!ids.length) return new Map();
    const found = await imageRepository.findLiveByIds(userId, ids);
    return new Map(found.map((image) => [image.id, presentEntryImage(image, deps.config.BASE_URL)]));
  }

  /** Each transfer's companion, for presenting `transaction` with its account and amount. */
  async function companionsOf(userId: string, entries: Entry[]): Promise<Map<string, Entry>> {
    const ids = entries.flatMap((entry) => (entry.transactionId ? [entry.transactionId] : []));
    if (!ids.length) return new Map();
    const found = await entriesTable.findByIds(deps.dataSource, userId, ids);
    return new Map(found.map((entry) => [entry.id, entry]));
  }

  return async (userId, entries, known) => {
    const [companions, settings, images, series] = await Promise.all([
      companionsOf(userId, entries),
      known ?? ledger.entries.findCurrencySettings(deps.dataSource, userId),
      imagesOf(userId, entries),
      seriesOf(deps.dataSource, userId, entries),
    ]);
    return (entry: Entry) =>
      presentEntry(
        entry,
        companions.get(entry.transactionId ?? ''),
        findUserCrossRate(deps.rates, settings.customRates, entry.currency, settings.main, entry.date),
        entry.imageIds.flatMap((id) => (images.has(id) ? [images.get(id)!] : [])),
        series.get(entry.id),
      );
  };
}
