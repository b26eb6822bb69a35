import { roundToCurrency } from './amount';
import { findCrossRate, RATE_SIGNIFICANT_DIGITS } from './convert';
import { Decimal, type DecimalValue } from './decimal';
import type { RateSource } from './rate-table';

/**
 * A user's own exchange rate for one pair: `rate` units of `referenceCurrency` per 1 `code` (exact text).
 * It replaces the ECB history for that pair, in both directions and on every date, wherever a figure is
 * derived for that user (main_rate, sums, the summary). `fixed` is the client's flag, kept and returned.
 */
export interface CustomRate {
  code: string;
  referenceCurrency: string;
  rate: string;
  fixed: boolean;
}

/** Units of `to` per 1 `from` from the user's custom rates (the inverse for the reverse pair), if one is set. */
export function findCustomRate(custom: readonly CustomRate[], from: string, to: string): Decimal | undefined {
  for (const pair of custom) {
    if (pair.code === from && pair.referenceCurrency === to) return new Decimal(pair.rate);
    if (pair.code === to && pair.referenceCurrency === from) {
      return new Decimal(1)
        .dividedBy(pair.rate)
        .toSignificantDigits(RATE_SIGNIFICANT_DIGITS, Decimal.ROUND_HALF_EVEN);
    }
  }
  return undefined;
}

/** The rate a user's figures use: their custom rate for the pair, else the ECB cross rate of `date`. */
export function findUserCrossRate(
  rates: RateSource,
  custom: readonly CustomRate[],
  from: string,
  to: string,
  date: string,
): Decimal | undefined {
  if (from === to) return new Decimal(1);
  return findCustomRate(custom, from, to) ?? findCrossRate(rates, from, to, date);
}

/** Converts with the user's rates and rounds half-even to `to`; undefined when no rate is known. */
export function convertForUser(
  rates: RateSource,
  custom: readonly CustomRate[],
  options: { amount: DecimalValue; from: string; to: string; date: string },
): Decimal | undefined {
  const rate = findUserCrossRate(rates, custom, options.from, options.to, options.date);
  return rate ? roundToCurrency(new Decimal(options.amount).times(rate), options.to) : undefined;
}
