import { inputError } from '@pfs/errors';
import {
  convertForUser,
  type CustomRate,
  type Decimal,
  type DecimalValue,
  type RateSource,
} from '@pfs/money';

/**
 * One day's exact total in `to`, by the rule every sum follows (docs/ledger.md, `/entries/sums`): converted
 * with that day's rate (the user's custom rate for the pair when set), rounded half-even to `to`. No rate
 * known for the day is the client's choice of currency: a 400 naming `currency`.
 */
export function convertDayTotal(
  rates: RateSource,
  customRates: readonly CustomRate[] | undefined,
  total: { amount: DecimalValue; from: string; to: string; date: string },
): Decimal {
  const converted = convertForUser(rates, customRates ?? [], total);
  if (!converted) {
    throw inputError([
      { field: 'currency', error: `no stored rate from ${total.from} to ${total.to} on ${total.date}` },
    ]);
  }
  return converted;
}
