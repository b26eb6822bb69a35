import { type FieldError, inputError } from '@pfs/errors';
import type { StoredRepeatRule } from '@pfs/resource-store';
import { RRule, rrulestr } from 'rrule';
import { DATE_RULE, isValidDate } from '../../http/date-rule';

export type RepeatRule = StoredRepeatRule;

export const FREQUENCIES = ['daily', 'weekly', 'monthly', 'yearly'] as const;
export const REPEAT_TYPES = ['automatic', 'confirm', 'confirmed'] as const;
export const MAX_INTERVAL = 127;
export const MAX_COUNT = 100_000;
/** How far ahead of a date the next occurrence is looked for; a rule with none that far is treated as ended. */
const HORIZON_YEARS = 30;

const BYDAY = /^([+-]?([1-9]|[1-4]\d|5[0-3]))?(MO|TU|WE|TH|FR|SA|SU)$/;
const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** `"1,-1"`, `[1, -1]` or `15` as a normalised list text, or undefined when a value breaks the bounds. */
function intList(value: unknown, max: number): string | undefined {
  const items = Array.isArray(value) ? value : typeof value === 'number' ? [value] : String(value).split(',');
  const numbers = items.map((item) => String(item).trim());
  if (!numbers.length) return undefined;
  for (const text of numbers) {
    if (!/^[+-]?\d{1,3}$/.test(text)) return undefined;
    const n = Number(text);
    if (n === 0 || Math.abs(n) > max) return undefined;
  }
  return numbers.map(Number).join(',');
}

/**
 * Reads the writable part of `entry.repeat` (read-only fields such as id and iteration are ignored), or
 * throws one 400 naming every bad field under `prefix`.
 */
export function readRepeatRule(value: unknown, prefix = 'repeat'): RepeatRule {
  const errors: FieldError[] = [];
  const fail = (field: string, error: string) => {
    errors.push({ field: `${prefix}.${field}`, error });
    return undefined;
  };
  if (!isObject(value)) throw inputError([{ field: prefix, error: 'must be an object' }]);
  const start = isValidDate(value.start)
    ? value.start
    : fail('start', `is required: ${DATE_RULE.replace('must be ', '')}`);
  let end: string | undefined;
  if (value.end !== undefined && value.end !== null && value.end !== '') {
    if (!isValidDate(value.end)) fail('end', DATE_RULE);
    else if (start && value.end < start) fail('end', 'must not be before start');
    else end = value.end;
  }
  let count: number | undefined;
  if (value.count !== undefined && value.count !== null && value.count !== 0) {
    const n = Number(value.count);
    if (!Number.isInteger(n) || n < 1 || n > MAX_COUNT)
      fail('count', `must be an integer from 1 to ${MAX_COUNT}`);
    else count = n;
  }
  const frequency = FREQUENCIES.includes(value.frequency as (typeof FREQUENCIES)[number])
    ? (value.frequency as RepeatRule['frequency'])
    : fail('frequency', `is required: one of ${FREQUENCIES.join(', ')}`);
  const interval = Number(value.interval);
  if (!Number.isInteger(interval) || interval < 1 || interval > MAX_INTERVAL)
    fail('interval', `is required: an integer from 1 to ${MAX_INTERVAL}`);
  const rule: RepeatRule = {
    start: start!,
    frequency: frequency!,
    interval,
    type: 'automatic',
    ...(end ? { end } : {}),
    ...(count ? { count } : {}),
  };
  const has = (key: string) => value[key] !== undefined && value[key] !== null && value[key] !== '';
  if (has('byday')) {
    const days = String(value.byday)
      .toUpperCase()
      .split(',')
      .map((day) => day.trim());
    if (typeof value.byday !== 'string' || !days.every((day) => BYDAY.test(day)))
      fail('byday', 'must be weekdays MO,TU,WE,TH,FR,SA,SU, each with an optional ordinal (1MO, -1FR)');
    else rule.byday = days.map((day) => day.replace(/^\+/, '')).join(',');
  }
  if (has('bymonthday')) {
    const days = intList(value.bymonthday, 31);
    if (!days) fail('bymonthday', 'must be days of the month 1–31 or -31–-1, comma-separated');
    else rule.bymonthday = days;
  }
  if (has('bysetpos')) {
    const positions = intList(value.bysetpos, 366);
    if (!positions) fail('bysetpos', 'must be positions 1–366 or -366–-1, comma-separated');
    else if (!rule.byday && !rule.bymonthday) fail('bysetpos', 'needs byday or bymonthday to choose from');
    else rule.bysetpos = positions;
  }
  if (has('type')) {
    if (!REPEAT_TYPES.includes(value.type as (typeof REPEAT_TYPES)[number]))
      fail('type', `must be one of ${REPEAT_TYPES.join(', ')}`);
    else rule.type = value.type as RepeatRule['type'];
  }
  if (errors.length) throw inputError(errors);
  return rule;
}

/** Two rules produce the same occurrences (and type). */
export function sameRule(a: RepeatRule, b: RepeatRule): boolean {
  const key = (rule: RepeatRule) =>
    JSON.stringify([
      rule.start,
      rule.end,
      rule.count,
      rule.frequency,
      rule.interval,
      rule.byday,
      rule.bymonthday,
      rule.bysetpos,
      rule.type,
    ]);
  return key(a) === key(b);
}

const compactDate = (date: string) => date.replaceAll('-', '');
const isoDate = (date: Date) => date.toISOString().slice(0, 10);

export function addDays(date: string, days: number): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return isoDate(day);
}

function addYears(date: string, years: number): string {
  return `${Number(date.slice(0, 4)) + years}${date.slice(4)}`.replace(/-02-29$/, '-02-28');
}

/**
 * The rule as an `rrule` object over floating dates (midnight UTC stands for the calendar day), ending at
 * the rule's end or `horizon`, whichever is first. The recurrence maths (BYSETPOS, ordinal BYDAY, months
 * without a 31st, leap years) is the library's, per RFC 5545.
 */
function toRRule(rule: RepeatRule, horizon: string): RRule {
  const parts = [`FREQ=${rule.frequency.toUpperCase()}`, `INTERVAL=${rule.interval}`];
  if (rule.byday) parts.push(`BYDAY=${rule.byday}`);
  if (rule.bymonthday) parts.push(`BYMONTHDAY=${rule.bymonthday}`);
  if (rule.bysetpos) parts.push(`BYSETPOS=${rule.bysetpos}`);
  const until = rule.end && rule.end < horizon ? rule.end : horizon;
  parts.push(`UNTIL=${compactDate(until)}T000000Z`);
  return rrulestr(`DTSTART:${compactDate(rule.start)}T000000Z\nRRULE:${parts.join(';')}`) as RRule;
}

/**
 * The occurrence dates of a rule in iteration order (index = iteration), on or before `through`, at most
 * `limit` of them. As RFC 5545 says, the start is always the first occurrence (iteration 0) even when it
 * does not match the rule, and `count` counts it.
 */
export function occurrenceDates(rule: RepeatRule, options: { through: string; limit: number }): string[] {
  const dates: string[] = [];
  const max = Math.min(options.limit, rule.count ?? Infinity);
  if (rule.start > options.through || max <= 0) return dates;
  dates.push(rule.start);
  if (dates.length >= max) return dates;
  toRRule(rule, options.through).all((date) => {
    const day = isoDate(date);
    if (day <= rule.start) return true;
    if (day > options.through) return false;
    dates.push(day);
    return dates.length < max;
  });
  return dates;
}

/**
 * The date of one iteration, or null when the rule ends before it or has none within 30 years of `after`
 * (pass today: a series lasting decades goes on, a rule that can never match again is treated as ended).
 */
export function dateOfIteration(rule: RepeatRule, iteration: number, after = rule.start): string | null {
  const horizon = addYears(after > rule.start ? after : rule.start, HORIZON_YEARS);
  const dates = occurrenceDates(rule, { through: horizon, limit: iteration + 1 });
  return dates[iteration] ?? null;
}
