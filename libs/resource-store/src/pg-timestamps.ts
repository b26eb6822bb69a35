import { types } from 'pg';

/** pg's own `timestamptz` parser (postgres-date): every value the fast path below does not take goes to it. */
const libraryParser = types.getTypeParser(types.builtins.TIMESTAMPTZ, 'text');
const ZERO = 48;

/** The digits of `text` from `start` to `end` as a number; NaN when one is not a digit. */
function digits(text: string, start: number, end: number): number {
  let value = 0;
  for (let index = start; index < end; index += 1) {
    const digit = text.charCodeAt(index) - ZERO;
    if (digit < 0 || digit > 9) return Number.NaN;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * A `timestamptz` as the server sends it in UTC (`2026-11-24 13:07:03.182579+00`: DateStyle ISO, TimeZone
 * UTC, years 1000-9999), read without postgres-date's three regular expressions: the same `Date`, to the
 * millisecond, as postgres-date gives (its fraction arithmetic, `1000 * parseFloat`, truncated by `Date.UTC`).
 * Any other form (an offset, BC, infinity, a year before 1000) goes to postgres-date itself. Why: a page of 200
 * entries parses 400 of these, and postgres-date was 8% of the API's CPU on a cold page (bench, issue 13).
 */
export function parseTimestamptz(text: string): Date | number | null {
  const length = text.length;
  if (
    length < 22 ||
    text.charCodeAt(length - 3) !== 43 || // '+'
    text.charCodeAt(length - 2) !== ZERO ||
    text.charCodeAt(length - 1) !== ZERO ||
    text.charCodeAt(0) === ZERO ||
    text[4] !== '-' ||
    text[7] !== '-' ||
    text[10] !== ' ' ||
    text[13] !== ':' ||
    text[16] !== ':' ||
    (length > 22 && text[19] !== '.')
  ) {
    return libraryParser(text) as Date | number | null;
  }
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 7);
  const day = digits(text, 8, 10);
  const hour = digits(text, 11, 13);
  const minute = digits(text, 14, 16);
  const second = digits(text, 17, 19);
  const fraction = length > 22 ? digits(text, 20, length - 3) : 0;
  if (Number.isNaN(year + month + day + hour + minute + second + fraction)) {
    return libraryParser(text) as Date | number | null;
  }
  const ms = length > 22 ? 1000 * parseFloat(text.slice(19, length - 3)) : 0;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms));
}

/** Makes pg read `timestamptz` with parseTimestamptz, process-wide (every pool of the store shares pg's types). */
export function useFastTimestamps(): void {
  types.setTypeParser(types.builtins.TIMESTAMPTZ, parseTimestamptz);
}
