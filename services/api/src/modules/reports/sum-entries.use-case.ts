import { inputError } from '@pfs/errors';
import { type CustomRate, Decimal, isKnownCurrency } from '@pfs/money';
import { type Actor, type DailyTotal, type EntryFilters, sumEntriesByDay } from '@pfs/resource-store';
import type { LedgerDeps } from '../../ledger-deps';
import { convertDayTotal } from './convert-day-total';

export type SumRange = 'day' | 'week' | 'month';

/** One row of sums (a period, a tag, a category). */
export interface SumsRow {
  /** Magnitudes (docs/money.md "Signs"): an expense sum is never negative. */
  expenses: { sum: Decimal; count: number };
  incomes: { sum: Decimal; count: number };
  /** The latest modified of the entries the row adds up. */
  modified: Date;
}

export interface PeriodSum extends SumsRow {
  /** First day of the period: the day, the Monday of the week, the 1st of the month. */
  day: string;
}

/**
 * Converts each day total into `currency` with that day's rate (the user's custom rate for the pair when
 * set) and adds it to the row of its key (a period, a tag, a category), by the sign convention of every sum
 * (docs/money.md "Signs"): an expense total counts as its magnitude. Shared by the period and the
 * tag/category sums; the rows come in the order their keys first appear.
 */
export function addUpDayTotals<K, R extends SumsRow>(
  deps: Pick<LedgerDeps, 'rates'>,
  totals: DailyTotal[],
  options: { currency: string; customRates?: CustomRate[] },
  keyOf: (total: DailyTotal) => K,
  newRow: (key: K, total: DailyTotal) => R,
): R[] {
  const rows = new Map<K, R>();
  for (const total of totals) {
    const converted = convertDayTotal(deps.rates, options.customRates, {
      amount: total.total,
      from: total.currency,
      to: options.currency,
      date: total.date,
    });
    const key = keyOf(total);
    const row = rows.get(key) ?? newRow(key, total);
    const side = total.kind === 'expense' ? row.expenses : row.incomes;
    side.sum = side.sum.plus(total.kind === 'expense' ? converted.negated() : converted);
    side.count += total.count;
    if (total.modified > row.modified) row.modified = total.modified;
    rows.set(key, row);
  }
  return [...rows.values()];
}

/** A row with nothing added yet. */
export const emptySums = (modified: Date): SumsRow => ({
  expenses: { sum: new Decimal(0), count: 0 },
  incomes: { sum: new Decimal(0), count: 0 },
  modified,
});

/** The first day of the period holding `date`; weeks start on Monday (ISO 8601). */
export function periodStart(date: string, range: SumRange): string {
  if (range === 'day') return date;
  if (range === 'month') return `${date.slice(0, 7)}-01`;
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
}

/**
 * Expense and income sums per period in `currency`. Rule (docs/ledger.md): entries are summed exactly per
 * day and entry currency, each such total is converted with the ECB rate of that day (or the user's custom
 * rate for the pair) and rounded half-even to the target precision, and those are added up. Transfers are not expenses or incomes and are left out.
 */
export async function sumEntries(
  deps: LedgerDeps,
  actor: Actor,
  options: { filters: EntryFilters; currency: string; range: SumRange; customRates?: CustomRate[] },
): Promise<PeriodSum[]> {
  if (!isKnownCurrency(options.currency))
    throw inputError([{ field: 'currency', error: 'must be a known ISO 4217 currency code' }]);
  const totals = await sumEntriesByDay(deps.store.read(actor), options.filters);
  const periods = addUpDayTotals(
    deps,
    totals,
    options,
    (total) => periodStart(total.date, options.range),
    (day, total): PeriodSum => ({ day, ...emptySums(total.modified) }),
  );
  return periods.sort((a, b) => (a.day < b.day ? -1 : 1));
}
