import { type CustomRate, type Decimal, findUserCrossRate } from '@pfs/money';
import type { Entry, UserRead } from '@pfs/resource-store';
import type { ApiDependencies } from '../../dependencies';
import { presentEntryImage } from '../images/images.presenter';
import { seriesOf } from '../repeats/repeat-reads';
import { presentEntry } from './entries.presenter';

/** Presents entries as `GET /entries` does (companions, main rate, repeat); built per request. */
export type PresenterFor = (
  /** Where to read: the pool, or the change that just wrote `entries` (its rows are not committed yet). */
  read: UserRead,
  entries: Entry[],
  /** The user's main currency and custom rates, when the caller already read them. */
  known?: { main: string; customRates: CustomRate[] },
) => Promise<(entry: Entry) => Record<string, unknown>>;

/**
 * Presents entries with their transfer companions and main-currency rates (one user read per request,
 * concurrent with the companions' read; a list passes the main currency it read beside its page).
 */
export function entryPresenterFor(deps: ApiDependencies): PresenterFor {
  const { entries: entryRepository, images: imageRepository, repeats } = deps.repos;

  /** The live images of a page of entries, presented, in one query (none when no entry has images). */
  async function imagesOf(read: UserRead, entries: Entry[]): Promise<Map<string, Record<string, unknown>>> {
    const ids = entries.flatMap((entry) => entry.imageIds);
    if (!ids.length) return new Map();
    const found = await imageRepository.findLiveByIds(read, ids);
    return new Map(found.map((image) => [image.id, presentEntryImage(image, deps.config.BASE_URL)]));
  }

  /** Each transfer's companion, for presenting `transaction` with its account and amount. */
  async function companionsOf(read: UserRead, entries: Entry[]): Promise<Map<string, Entry>> {
    const ids = entries.flatMap((entry) => (entry.transactionId ? [entry.transactionId] : []));
    if (!ids.length) return new Map();
    const found = await entryRepository.table.findByIds(read, ids);
    return new Map(found.map((entry) => [entry.id, entry]));
  }

  return async (read, entries, known) => {
    const settingsOf = async () => known ?? entryRepository.findCurrencySettings(read);
    const [companions, settings, images, series] =
      'changeSeq' in read
        ? // A change is one connection: its reads run one after another (the pool's side by side).
          ([
            await companionsOf(read, entries),
            await settingsOf(),
            await imagesOf(read, entries),
            await seriesOf(repeats, read, entries),
          ] as const)
        : await Promise.all([
            companionsOf(read, entries),
            settingsOf(),
            imagesOf(read, entries),
            seriesOf(repeats, read, entries),
          ]);
    // One main rate per currency and day of the page, not per entry: a cross rate is a Decimal division
    // (200 entries, half in another currency: 1,000 -> 190 µs, micro-benchmark, issue 13). Decimals are immutable.
    const mainRates = new Map<string, Decimal | undefined>();
    const mainRateOf = (entry: Entry) => {
      const key = `${entry.currency} ${entry.date}`;
      if (mainRates.has(key)) return mainRates.get(key);
      const rate = findUserCrossRate(
        deps.rates,
        settings.customRates,
        entry.currency,
        settings.main,
        entry.date,
      );
      mainRates.set(key, rate);
      return rate;
    };
    return (entry: Entry) =>
      presentEntry(
        entry,
        companions.get(entry.transactionId ?? ''),
        mainRateOf(entry),
        entry.imageIds.flatMap((id) => (images.has(id) ? [images.get(id)!] : [])),
        series.get(entry.id),
      );
  };
}
