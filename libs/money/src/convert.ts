import { roundToCurrency } from './amount';
import { Decimal, DecimalValue } from './decimal';
import type { RateSource } from './rate-table';

/** Cross rates keep this many significant digits: far beyond the ECB's 5–6, and stable to store. */
export const RATE_SIGNIFICANT_DIGITS = 12;

/**
 * Units of `to` per 1 unit of `from` on `date`, crossed through EUR with the rate of each currency on the
 * nearest earlier business day. Undefined when either currency has no rate on or before that date.
 */
export function findCrossRate(
  rates: RateSource,
  from: string,
  to: string,
  date: string,
): Decimal | undefined {
  if (from === to) return new Decimal(1);
  const fromRate = rates.findRate(from, date);
  const toRate = rates.findRate(to, date);
  if (!fromRate || !toRate) return undefined;
  return toRate.rate
    .dividedBy(fromRate.rate)
    .toSignificantDigits(RATE_SIGNIFICANT_DIGITS, Decimal.ROUND_HALF_EVEN);
}

export interface ConvertOptions {
  amount: DecimalValue;
  from: string;
  to: string;
  /** YYYY-MM-DD: the day whose rate applies. */
  date: string;
}

/** Converts and rounds to the target currency's precision (half-even). Undefined when no rate is known. */
export function convertAmount(rates: RateSource, options: ConvertOptions): Decimal | undefined {
  const rate = findCrossRate(rates, options.from, options.to, options.date);
  if (!rate) return undefined;
  return roundToCurrency(new Decimal(options.amount).times(rate), options.to);
}

/** Applies a known rate (such as the one an entry stored) and rounds to the target currency. */
export function applyRate(amount: DecimalValue, rate: DecimalValue, to: string): Decimal {
  return roundToCurrency(new Decimal(amount).times(rate), to);
}
