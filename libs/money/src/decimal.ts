import DecimalJs from 'decimal.js';

/**
 * The one Decimal constructor of the service. 40 significant digits hold any amount the API accepts
 * (|amount| < 1e15 with up to 9 decimals) times any exchange rate without loss, so only the explicit
 * rounding to a currency's precision ever changes a value.
 *
 * Rounding rule: ROUND_HALF_EVEN (banker's rounding). A tie goes to the even neighbour, so rounding
 * many converted amounts does not drift upwards as half-up would; sums of converted amounts stay
 * unbiased. See docs/money.md.
 */
export const Decimal = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  toExpNeg: -20,
  toExpPos: 40,
});
export type Decimal = InstanceType<typeof Decimal>;
/** What Decimal arithmetic accepts: exact decimal text, a number, or a Decimal. */
export type DecimalValue = string | number | Decimal;

export const ROUNDING_MODE = Decimal.ROUND_HALF_EVEN;
