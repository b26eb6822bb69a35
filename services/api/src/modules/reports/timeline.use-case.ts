import { inputError } from '@pfs/errors';
import { type CustomRate, Decimal, isKnownCurrency } from '@pfs/money';
import {
  type Actor,
  buildEntryFilters,
  type Entry,
  type EntryFilters,
  listTimelineEntries,
  type SqlFilter,
} from '@pfs/resource-store';
import type { LedgerDeps } from '../../ledger-deps';
import { matchesFilters, type PlannedOccurrence, plannedOccurrences } from '../repeats/planned-occurrences';
import { convertDayTotal } from './convert-day-total';

export type TimelineGroupBy = 'day' | 'category' | 'location';
export const TIMELINE_GROUPS = ['day', 'category', 'location'] as const;
/** The most entries one timeline reads: a range holding more is refused (narrow from..to). */
export const MAX_TIMELINE_ENTRIES = 20_000;

export interface TimelineGroup {
  /** The day, category id or location (id, else latitude,longitude) the group is about. */
  key: string;
  location?: Entry['location'];
  sum: Decimal;
  count: number;
  entries: Entry[];
  planned: PlannedOccurrence[];
}

export interface TimelineRequest {
  /** No `type`: expenses and incomes both (transfers are neither); `extraFilters` leaves transfers out. */
  filters: EntryFilters & { from: string; to: string; type?: 'expense' | 'income' };
  extraFilters: SqlFilter[];
  /** `repeat=<series id>`: only that series (its stored entries through extraFilters, its planned ones here). */
  seriesId?: string;
  includeDeleted: boolean;
  currency: string;
  /** The user's custom rates (docs/ledger.md): they replace the ECB rates for their pairs. */
  customRates?: CustomRate[];
  group: TimelineGroupBy;
  expand: boolean;
}

/**
 * `GET /entries/timeline`: the entries of one type (or both) in from..to grouped by day, category or location, each
 * group with its exact sum in `currency`. Sum rule as /entries/sums (docs/ledger.md): per group, entries
 * are added exactly per day and currency, each total is converted with the ECB rate of that day and
 * rounded half-even to the currency, and those are added. Groups: days in date order; categories and
 * locations by the size of their sum, largest first. With `expand`, planned occurrences join their groups.
 */
export async function entryTimeline(
  deps: LedgerDeps,
  actor: Actor,
  request: TimelineRequest,
): Promise<TimelineGroup[]> {
  if (!isKnownCurrency(request.currency))
    throw inputError([{ field: 'currency', error: 'must be a known ISO 4217 currency code' }]);
  const page = await listTimelineEntries(
    deps.store.read(actor),
    { perPage: MAX_TIMELINE_ENTRIES + 1, offset: 0, includeDeleted: request.includeDeleted },
    [...buildEntryFilters(request.filters), ...request.extraFilters],
  );
  if (page.items.length > MAX_TIMELINE_ENTRIES) {
    throw inputError([
      { field: 'from', error: `the range holds more than ${MAX_TIMELINE_ENTRIES} entries; narrow it` },
    ]);
  }
  const planned = request.expand
    ? (await plannedOccurrences(deps, actor, request.filters)).filter(
        (item) =>
          matchesFilters(item, request.filters) &&
          !item.transferTo &&
          !item.amount.isZero() &&
          (!request.seriesId || item.seriesId === request.seriesId),
      )
    : [];
  const groups = new Map<string, TimelineGroup & { totals: Map<string, Decimal> }>();
  const add = (
    key: string | undefined,
    item: { date: string; currency: string; amount: Decimal | string; location?: Entry['location'] },
  ) => {
    if (key === undefined) return undefined;
    let group = groups.get(key);
    if (!group) {
      group = { key, sum: new Decimal(0), count: 0, entries: [], planned: [], totals: new Map() };
      if (request.group === 'location') group.location = item.location ?? null;
      groups.set(key, group);
    }
    const totalKey = `${item.date} ${item.currency}`;
    group.totals.set(totalKey, (group.totals.get(totalKey) ?? new Decimal(0)).plus(item.amount));
    group.count++;
    return group;
  };
  for (const entry of page.items) add(groupKey(request.group, entry), entry)?.entries.push(entry);
  for (const item of planned) add(groupKey(request.group, item), item)?.planned.push(item);
  // The sign convention of every sum (docs/money.md): expenses as a magnitude, both kinds as the net.
  const sign = request.filters.type === 'expense' ? -1 : 1;
  for (const group of groups.values())
    group.sum = convertTotals(deps, group.totals, request.currency, request.customRates ?? []).times(sign);
  const ordered = [...groups.values()].map(({ totals: _totals, ...group }) => group);
  if (request.group === 'day') return ordered.sort((a, b) => (a.key < b.key ? -1 : 1));
  return ordered.sort((a, b) => b.sum.abs().comparedTo(a.sum.abs()) || (a.key < b.key ? -1 : 1));
}

function groupKey(
  group: TimelineGroupBy,
  item: { date: string; categoryId?: string | null; category?: string; location?: Entry['location'] },
): string | undefined {
  if (group === 'day') return item.date;
  if (group === 'category') return (item.categoryId ?? item.category) || '';
  if (!item.location) return undefined;
  return item.location.id ?? `${item.location.latitude},${item.location.longitude}`;
}

function convertTotals(
  deps: LedgerDeps,
  totals: Map<string, Decimal>,
  currency: string,
  customRates: readonly CustomRate[],
): Decimal {
  let sum = new Decimal(0);
  for (const [key, total] of totals) {
    const [date, from] = key.split(' ');
    sum = sum.plus(convertDayTotal(deps.rates, customRates, { amount: total, from, to: currency, date }));
  }
  return sum;
}
