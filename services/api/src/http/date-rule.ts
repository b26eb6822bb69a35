const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The dates the service takes anywhere (entries, filters, rules, budgets, goals): wide enough for any
 * ledger, and inside what JavaScript dates and Postgres handle alike (years below 100 and above 9999 do not).
 */
export const MIN_DATE = '1900-01-01';
export const MAX_DATE = '2999-12-31';
export const DATE_RULE = `must be a date YYYY-MM-DD from ${MIN_DATE} to ${MAX_DATE}`;

export function isValidDate(value: unknown): value is string {
  if (typeof value !== 'string' || !DATE.test(value) || value < MIN_DATE || value > MAX_DATE) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}
