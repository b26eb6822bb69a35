import type { CustomRate } from '@pfs/money';
import type { CurrencyRequest } from './currency-change-request';

/** GET /me shows this many previous main currencies. */
export const RECENT_CURRENCIES = 5;

const samePair = (rate: CustomRate, a: string, b: string) =>
  (rate.code === a && rate.referenceCurrency === b) || (rate.code === b && rate.referenceCurrency === a);

/**
 * The previous main currencies after a change, most recent first. A `sign` change says the old code was a
 * mistake, so it is not remembered as used.
 */
export function nextRecentCurrencies(recent: string[], oldMain: string, request: CurrencyRequest): string[] {
  if (request.main === oldMain) return recent;
  const kept = recent.filter((code) => code !== request.main && code !== oldMain);
  return (request.mode === 'sign' ? kept : [oldMain, ...kept]).slice(0, RECENT_CURRENCIES);
}

/**
 * The user's custom rates after the request. A change of main currency first settles the old↔new pair:
 * `historical` drops a custom rate for it (the ECB history applies), `custom` sets it to
 * `custom_exchange_rate` (fixed), `sign` relabels the old code as the new one everywhere. Then each
 * `currency.custom` item sets (or, without a rate, removes) its pair, whichever direction it was stored in.
 */
export function nextCustomRates(
  stored: CustomRate[],
  oldMain: string,
  request: CurrencyRequest,
): CustomRate[] {
  const { main } = request;
  let rates = [...stored];
  if (main !== oldMain) {
    if (request.mode === 'sign') {
      const relabel = (code: string) => (code === oldMain ? main : code);
      const relabelled = rates
        .map((rate) => ({
          ...rate,
          code: relabel(rate.code),
          referenceCurrency: relabel(rate.referenceCurrency),
        }))
        .filter((rate) => rate.code !== rate.referenceCurrency);
      rates = relabelled.filter(
        (rate, index) =>
          relabelled.findIndex((other) => samePair(other, rate.code, rate.referenceCurrency)) === index,
      );
    } else {
      rates = rates.filter((rate) => !samePair(rate, oldMain, main));
      if (request.mode === 'custom') {
        rates.push({
          code: oldMain,
          referenceCurrency: main,
          rate: request.customExchangeRate!,
          fixed: true,
        });
      }
    }
  }
  for (const item of request.custom) {
    const reference = item.referenceCurrency ?? main;
    rates = rates.filter((rate) => !samePair(rate, item.code, reference));
    if (item.rate !== undefined)
      rates.push({ code: item.code, referenceCurrency: reference, rate: item.rate, fixed: item.fixed });
  }
  return rates;
}
