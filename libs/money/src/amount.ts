import { getCurrency } from './currencies';
import { Decimal, DecimalValue } from './decimal';

/** The reference bounds amounts strictly between -1e15 and 1e15. */
export const AMOUNT_LIMIT = new Decimal('1e15');

const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Reads an amount sent as a JSON number or a decimal string. Returns undefined for anything that is not a
 * finite number, so callers can name the field in their error. JSON numbers reach us as doubles: we read
 * their shortest decimal form (`0.1` stays `0.1`), never their binary expansion.
 */
export function parseAmount(input: unknown): Decimal | undefined {
  if (typeof input === 'number') return Number.isFinite(input) ? new Decimal(String(input)) : undefined;
  if (typeof input === 'string' && DECIMAL_TEXT.test(input.trim())) return new Decimal(input.trim());
  return undefined;
}

export function isWithinAmountLimit(amount: Decimal): boolean {
  return amount.abs().lessThan(AMOUNT_LIMIT);
}

/** Rounds to the currency's minor units, half-even (see decimal.ts). */
export function roundToCurrency(amount: DecimalValue, currencyCode: string): Decimal {
  return new Decimal(amount).toDecimalPlaces(getCurrency(currencyCode).precision, Decimal.ROUND_HALF_EVEN);
}

/** The exact decimal text of an amount, as Postgres `numeric` takes it and as JSON numbers are written. */
export function formatAmount(amount: DecimalValue): string {
  return new Decimal(amount).toFixed();
}

/** Adds exactly; the empty sum is 0. */
export function sumAmounts(amounts: Iterable<DecimalValue>): Decimal {
  let total = new Decimal(0);
  for (const amount of amounts) total = total.plus(amount);
  return total;
}

/**
 * JSON has only doubles, so a response carries amounts as numbers: exact for every amount within the
 * limit at the currency precisions we use (≤ 15 significant digits round-trip through a double).
 */
export function amountToJson(amount: DecimalValue): number {
  // Decimal text (as Postgres numeric gives it) converts straight to the nearest double: the same number
  // the Decimal detour would give, without building a Decimal per field of every listed entry.
  if (typeof amount === 'string' && DECIMAL_TEXT.test(amount)) return Number(amount);
  return Number(new Decimal(amount).toFixed());
}
