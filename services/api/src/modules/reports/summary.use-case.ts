import { Decimal } from '@pfs/money';
import type { PeriodSum } from './sum-entries.use-case';

export interface SideSummary {
  sum: Decimal;
  count: number;
  /** Median of the daily totals over every day of the period (days without entries count as 0). */
  dailyMedian: Decimal;
  dailyAverage: Decimal;
}

function median(values: Decimal[]): Decimal {
  if (!values.length) return new Decimal(0);
  const sorted = [...values].sort((a, b) => a.comparedTo(b));
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : sorted[middle - 1].plus(sorted[middle]).dividedBy(2);
}

/** Totals, counts, medians and averages of daily sums between `from` and `to` inclusive. */
export function summarize(days: PeriodSum[], from: string, to: string) {
  const dayCount =
    Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
  const side = (pick: (day: PeriodSum) => { sum: Decimal; count: number }): SideSummary => {
    const totals = days.map((day) => pick(day).sum);
    const zeros = Array.from({ length: Math.max(0, dayCount - totals.length) }, () => new Decimal(0));
    const sum = totals.reduce((total, value) => total.plus(value), new Decimal(0));
    return {
      sum,
      count: days.reduce((count, day) => count + pick(day).count, 0),
      dailyMedian: median([...totals, ...zeros]).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN),
      dailyAverage: sum.dividedBy(dayCount).toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN),
    };
  };
  return { dayCount, expenses: side((day) => day.expenses), incomes: side((day) => day.incomes) };
}
