import { Decimal } from '@pfs/money';
import type { PeriodSum } from './sum-entries.use-case';

/** Totals of every matching entry ever, and the first and last day with one (plain JSON, cacheable). */
export interface AllTimeTotals {
  firstDay?: string;
  lastDay?: string;
  expenses: string;
  incomes: string;
}

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

export function allTimeTotals(days: PeriodSum[]): AllTimeTotals {
  const total = (pick: (day: PeriodSum) => Decimal) =>
    days.reduce((sum, day) => sum.plus(pick(day)), new Decimal(0)).toString();
  return {
    firstDay: days[0]?.day,
    lastDay: days[days.length - 1]?.day,
    expenses: total((day) => day.expenses.sum),
    incomes: total((day) => day.incomes.sum),
  };
}

/**
 * `all_time_avg`: the all-time total (each day converted as in /entries/sums) divided by the days from the
 * first to the last matching entry (inclusive, the same span for both sides), times the length of the
 * asked period; 2 decimals, half-even (like daily_avg). No entries → 0.
 */
export function allTimeAverage(
  totals: AllTimeTotals,
  side: 'expenses' | 'incomes',
  dayCount: number,
): Decimal {
  if (!totals.firstDay || !totals.lastDay) return new Decimal(0);
  const span = dayNumber(totals.lastDay) - dayNumber(totals.firstDay) + 1;
  return new Decimal(totals[side])
    .times(dayCount)
    .dividedBy(span)
    .toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN);
}
