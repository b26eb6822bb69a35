import type { StoredRepeatRule } from '@pfs/resource-store';
import { RRule, rrulestr } from 'rrule';

export type RepeatRule = StoredRepeatRule;

export const FREQUENCIES = ['daily', 'weekly', 'monthly', 'yearly'] as const;
export const REPEAT_TYPES = ['automatic', 'confirm', 'confirmed'] as const;
export const MAX_INTERVAL = 127;
export const MAX_COUNT = 100_000;
/** How far ahead of a date the next occurrence is looked for; a rule with none that far is treated as ended. */
const HORIZON_YEARS = 30;

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
