import { inputError } from '@pfs/errors';
import { amountToJson, Decimal, findCrossRate, roundToCurrency } from '@pfs/money';
import type { Actor, EntryFilters, RepeatSeries } from '@pfs/resource-store';
import type { EntryDraft } from '../entries/entry-draft';
import type { LedgerDeps } from '../../ledger-deps';
import { occurrenceDates } from './repeat-rule';
import { MAX_OCCURRENCES_PER_WRITE } from './repeat-series.use-case';
import { draftFromTemplate } from './repeat-template';
import { presentRepeat } from './repeat.presenter';

/** The most planned occurrences one read expands (over all series). */
export const MAX_PLANNED = 10_000;
/** The most rule dates one read computes over all series (about 0.2 s of CPU). */
const MAX_EXPANDED_DATES = 50_000;

/**
 * An occurrence a series will create later (its date is after the materialized ones): read-only, not an
 * entry yet. `id` is `<first entry id>-<iteration>` so a client can tell planned items apart and apart
 * from each other.
 */
export interface PlannedOccurrence {
  id: string;
  seriesId: string;
  iteration: number;
  date: string;
  amount: Decimal;
  currency: string;
  /** Units of the account's currency per unit of `currency` (the client's, else the ECB rate of the date). */
  rate?: Decimal;
  account: string;
  category?: string;
  tags: string[];
  desc?: string;
  location?: EntryDraft['location'];
  transferTo?: string;
  repeat: Record<string, unknown>;
}

const tooFarAhead = () =>
  inputError([
    { field: 'to', error: 'reaches too far ahead for the repeating entries to be expanded; narrow from..to' },
  ]);

/**
 * The planned occurrences of every live series of the user dated within from..to (inclusive), in date
 * order. This is what `GET /entries?expand=true` adds and what a summary's planned sums can add up.
 */
export async function plannedOccurrences(
  deps: LedgerDeps,
  actor: Actor,
  range: { from: string; to: string },
): Promise<PlannedOccurrence[]> {
  const read = deps.store.read(actor);
  const series = await deps.repeats.findLiveOfUser(read);
  const planned: PlannedOccurrence[] = [];
  // Rule dates are computed from each series' start: what one read may compute is bounded, however many
  // series the user has and however far ahead `to` is.
  let expandable = MAX_EXPANDED_DATES;
  for (const one of series) {
    if (planned.length >= MAX_PLANNED) break;
    if (!one.nextDate || one.nextDate > range.to) continue;
    if (expandable <= 0) throw tooFarAhead();
    const limit = Math.min(one.nextIteration + MAX_OCCURRENCES_PER_WRITE * 10, expandable);
    const dates = occurrenceDates(one.rule, { through: range.to, limit });
    expandable -= dates.length;
    const truncated = dates.length === limit && dates[dates.length - 1] < range.to;
    if (truncated && expandable <= 0 && limit < (one.rule.count ?? Infinity)) throw tooFarAhead();
    for (let iteration = one.nextIteration; iteration < dates.length; iteration++) {
      if (dates[iteration] < range.from) continue;
      planned.push(plannedOf(one, iteration, dates[iteration]));
      if (planned.length >= MAX_PLANNED) break;
    }
  }
  const currencies = await deps.repeats.findAccountCurrencies(
    read,
    planned.flatMap((item) => [item.account, ...(item.transferTo ? [item.transferTo] : [])]),
  );
  // A series whose account was deleted plans nothing (the materializer ends it on its next pass).
  const live = planned.filter(
    (item) => currencies.has(item.account) && (!item.transferTo || currencies.has(item.transferTo)),
  );
  for (const item of live) {
    const accountCurrency = currencies.get(item.account);
    if (!item.rate && accountCurrency)
      item.rate =
        item.currency === accountCurrency
          ? new Decimal(1)
          : findCrossRate(deps.rates, item.currency, accountCurrency, item.date);
  }
  return live.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id < b.id ? -1 : 1));
}

function plannedOf(series: RepeatSeries, iteration: number, date: string): PlannedOccurrence {
  const draft = draftFromTemplate(series.template, date);
  return {
    id: `${series.firstEntryId ?? `r${series.id}`}-${iteration}`,
    seriesId: series.id,
    iteration,
    date,
    amount: roundToCurrency(draft.amount, draft.currency.code),
    currency: draft.currency.code,
    rate: draft.currency.rate,
    account: draft.account,
    category: draft.category,
    tags: draft.tags,
    desc: draft.desc,
    location: draft.location,
    transferTo: draft.transaction?.account,
    repeat: presentRepeat(series, iteration),
  };
}

/** The list filters of /entries applied to planned occurrences (type, accounts, categories, tags, search). */
export function matchesFilters(item: PlannedOccurrence, filters: EntryFilters): boolean {
  const type = item.transferTo ? 'transaction' : item.amount.isNegative() ? 'expense' : 'income';
  if (filters.type && filters.type !== type) return false;
  const passes = (list: EntryFilters['accounts'], values: string[]) =>
    (list ?? []).every((filter) => filter.ids.some((id) => values.includes(id)) !== filter.negate);
  if (!passes(filters.accounts, [item.account])) return false;
  if (!passes(filters.categories, item.category ? [item.category] : [])) return false;
  if (!passes(filters.tags, item.tags)) return false;
  if (!passes(filters.locations, item.location?.id ? [item.location.id] : [])) return false;
  if (filters.search && !(item.desc ?? '').toLowerCase().includes(filters.search.toLowerCase())) return false;
  if (filters.ids) return false;
  return (!filters.from || item.date >= filters.from) && (!filters.to || item.date <= filters.to);
}

/** A planned occurrence in the `/entries` representation, marked `planned: true`. */
export function presentPlanned(item: PlannedOccurrence, mainRate?: Decimal): Record<string, unknown> {
  return {
    id: item.id,
    amount: amountToJson(item.amount),
    currency: {
      code: item.currency,
      ...(item.rate ? { rate: amountToJson(item.rate) } : {}),
      ...(mainRate ? { main_rate: amountToJson(mainRate) } : {}),
      fixed: false,
    },
    date: item.date,
    ...(item.desc ? { desc: item.desc } : {}),
    account: item.account,
    ...(item.category ? { category: item.category } : {}),
    ...(item.tags.length ? { tags: item.tags } : {}),
    ...(item.location ? { location: item.location } : {}),
    completed: false,
    repeat: item.repeat,
    ...(item.transferTo ? { transaction: { account: item.transferTo } } : {}),
    planned: true,
  };
}
