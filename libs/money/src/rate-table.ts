import { Decimal } from './decimal';
import type { ReferenceRate } from './ecb-rates.parser';

/** The base of the ECB reference rates: every rate is units of a currency per 1 EUR. */
export const BASE_CURRENCY = 'EUR';

/** A rate found for a date: `date` is the business day it was published, on or before the date asked. */
export interface FoundRate {
  date: string;
  rate: Decimal;
}

/** Where conversion reads EUR rates from; the API loads the `currency_rates` table into one. */
export interface RateSource {
  /** The rate of `currency` per EUR on `date`, or on the nearest earlier day with one; undefined if none. */
  findRate(currency: string, date: string): FoundRate | undefined;
}

/**
 * EUR reference rates in memory, per currency sorted by date; lookups are a binary search.
 * The whole ECB history (about 200,000 rates) takes a few megabytes.
 */
export class RateTable implements RateSource {
  private readonly dates = new Map<string, string[]>();
  private readonly rates = new Map<string, string[]>();

  constructor(rates: Iterable<ReferenceRate>) {
    const byCurrency = new Map<string, ReferenceRate[]>();
    for (const rate of rates) {
      const list = byCurrency.get(rate.currency) ?? [];
      list.push(rate);
      byCurrency.set(rate.currency, list);
    }
    for (const [currency, list] of byCurrency) {
      list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
      this.dates.set(
        currency,
        list.map((rate) => rate.date),
      );
      this.rates.set(
        currency,
        list.map((rate) => rate.rate),
      );
    }
  }

  get currencies(): string[] {
    return [BASE_CURRENCY, ...this.dates.keys()];
  }

  findRate(currency: string, date: string): FoundRate | undefined {
    if (currency === BASE_CURRENCY) return { date, rate: new Decimal(1) };
    const dates = this.dates.get(currency);
    if (!dates) return undefined;
    // Index of the last date <= the asked date.
    let low = 0;
    let high = dates.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (dates[middle] <= date) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    if (found === -1) return undefined;
    return { date: dates[found], rate: new Decimal(this.rates.get(currency)![found]) };
  }
}
