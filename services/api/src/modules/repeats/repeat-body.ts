import { type AppError, type FieldError, inputError } from '@pfs/errors';
import type { SchemaRegistry } from '@pfs/resource-api';
import { DATE_RULE, isValidDate } from '../../http/date-rule';
import type { EntryBody } from '../entries/entry-body.schema';
import { FREQUENCIES, MAX_COUNT, MAX_INTERVAL, type RepeatRule } from './repeat-rule';

/** `entry.repeat` as the published schema checks it (types, date format, enums, interval and count bounds). */
export type RepeatBody = NonNullable<EntryBody['repeat']>;

const BYDAY = /^([+-]?([1-9]|[1-4]\d|5[0-3]))?(MO|TU|WE|TH|FR|SA|SU)$/;
const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
/** An empty text is no value for the members the schema lets be any string (byday, the int lists). */
const given = (value: unknown) => value !== undefined && value !== null && value !== '';

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

/** byday as `MO,-1FR` (upper case, no `+`), or undefined when a day is not a weekday with an optional ordinal. */
function weekdays(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const days = value
    .toUpperCase()
    .split(',')
    .map((day) => day.trim());
  return days.every((day) => BYDAY.test(day))
    ? days.map((day) => day.replace(/^\+/, '')).join(',')
    : undefined;
}

/**
 * What the schema cannot say about a rule, in the order and words of the fields named before: start, frequency
 * and interval are required (the published schema leaves them optional), dates are in the service's range and the
 * end not before the start, count has an upper bound, byday and the int lists have their RFC 5545 grammar, and
 * bysetpos needs a set to choose from. Safe on values the schema refused (their fields are named by it).
 */
function repeatRuleErrors(repeat: Record<string, unknown>, prefix: string): FieldError[] {
  const errors: FieldError[] = [];
  const fail = (field: string, error: string) => errors.push({ field: `${prefix}.${field}`, error });
  const start = isValidDate(repeat.start) ? repeat.start : undefined;
  if (!start) fail('start', `is required: ${DATE_RULE.replace('must be ', '')}`);
  if (given(repeat.end)) {
    if (!isValidDate(repeat.end)) fail('end', DATE_RULE);
    else if (start && repeat.end < start) fail('end', 'must not be before start');
  }
  if (given(repeat.count) && repeat.count !== 0 && !(Number(repeat.count) <= MAX_COUNT))
    fail('count', `must be an integer from 1 to ${MAX_COUNT}`);
  if (repeat.frequency === undefined) fail('frequency', `is required: one of ${FREQUENCIES.join(', ')}`);
  if (repeat.interval === undefined) fail('interval', `is required: an integer from 1 to ${MAX_INTERVAL}`);
  const byday = given(repeat.byday) && weekdays(repeat.byday);
  if (given(repeat.byday) && !byday)
    fail('byday', 'must be weekdays MO,TU,WE,TH,FR,SA,SU, each with an optional ordinal (1MO, -1FR)');
  const bymonthday = given(repeat.bymonthday) && intList(repeat.bymonthday, 31);
  if (given(repeat.bymonthday) && !bymonthday)
    fail('bymonthday', 'must be days of the month 1–31 or -31–-1, comma-separated');
  if (given(repeat.bysetpos)) {
    if (!intList(repeat.bysetpos, 366))
      fail('bysetpos', 'must be positions 1–366 or -366–-1, comma-separated');
    else if (!byday && !bymonthday) fail('bysetpos', 'needs byday or bymonthday to choose from');
  }
  return errors;
}

/** The cross-field and range rules of a rule the schema has checked; one 400 names every bad field under `prefix`. */
export function assertRepeatRules(repeat: RepeatBody, prefix = 'repeat'): void {
  const errors = repeatRuleErrors(repeat, prefix);
  if (errors.length) throw inputError(errors);
}

/** The stored rule of a body that passed the schema and `assertRepeatRules`: lists normalised, type defaulted. */
export function repeatRuleOf(repeat: RepeatBody): RepeatRule {
  const rule: RepeatRule = {
    start: repeat.start!,
    frequency: repeat.frequency!,
    interval: repeat.interval!,
    type: 'automatic',
    ...(given(repeat.end) ? { end: repeat.end } : {}),
    ...(given(repeat.count) && repeat.count !== 0 ? { count: repeat.count } : {}),
  };
  if (given(repeat.byday)) rule.byday = weekdays(repeat.byday);
  if (given(repeat.bymonthday)) rule.bymonthday = intList(repeat.bymonthday, 31);
  if (given(repeat.bysetpos)) rule.bysetpos = intList(repeat.bysetpos, 366);
  if (repeat.type !== undefined) rule.type = repeat.type;
  return rule;
}

const fieldsOf = (error: unknown): FieldError[] => [...((error as AppError).fields ?? [])];

/**
 * The rule of a series edit (a PUT's `repeat`, or a PATCH's merged over the stored rule), which the merged entry
 * state leaves out: validated by its member of the published schema (`entries#repeat`), then by
 * `assertRepeatRules`; as before, one 400 names every bad field of either.
 */
export function parseRepeatRule(schemas: SchemaRegistry, value: unknown): RepeatRule {
  let errors: FieldError[] = [];
  try {
    schemas.parseMember<RepeatBody>('entries', 'repeat', value);
  } catch (error) {
    if (!isObject(value)) throw error;
    errors = fieldsOf(error);
  }
  const named = new Set(errors.map((error) => error.field));
  const ruleErrors = repeatRuleErrors(value as Record<string, unknown>, 'repeat');
  errors.push(...ruleErrors.filter((error) => !named.has(error.field)));
  if (errors.length) throw inputError(errors);
  return repeatRuleOf(value as RepeatBody);
}
