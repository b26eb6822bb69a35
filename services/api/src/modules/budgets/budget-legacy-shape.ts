import { type FieldError, inputError } from '@pfs/errors';
import { BUDGET_FREQUENCIES } from '@pfs/resource-store';

type Body = Record<string, unknown>;

const isPlainObject = (value: unknown): value is Body =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Unset as clients send it: absent, null, or the empty-string placeholder. */
const isUnset = (value: unknown) => value === undefined || value === null || value === '';

/** The period words older clients use beside the recurrence frequencies themselves. */
const FREQUENCY_ALIASES: Record<string, string> = {
  once: 'one-time',
  day: 'daily',
  week: 'weekly',
  month: 'monthly',
  year: 'yearly',
};

function frequencyOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  if ((BUDGET_FREQUENCIES as readonly string[]).includes(word)) return word;
  return FREQUENCY_ALIASES[word];
}

function intervalOf(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d{1,3}$/.test(value.trim()) ? Number(value) : value;
  return Number.isInteger(number) ? (number as number) : undefined;
}

/**
 * Toshl's published create and update schemas still require the pre-`recurrence` fields `start`, `period`
 * and `frequency` at the top level, and clients generated from them send exactly that (docs/budgets.md,
 * "Legacy shape"). Each of `period` and `frequency` is either a frequency word (`monthly`, or `month`) or
 * a whole number (the interval); `start`, `end` and `interval` are the recurrence's own. Mapped onto
 * `stored` (the recurrence a PUT edits) so a partial legacy body changes only what it names.
 */
function legacyRecurrence(body: Body, stored: Body | undefined): Body {
  const errors: FieldError[] = [];
  const recurrence: Body = { ...(stored ?? {}) };
  let frequency: string | undefined;
  for (const name of ['period', 'frequency'] as const) {
    const value = body[name];
    if (isUnset(value)) continue;
    const word = frequencyOf(value);
    const interval = intervalOf(value);
    if (word && frequency && word !== frequency) {
      errors.push({ field: name, error: `contradicts period: ${frequency}` });
    } else if (word) {
      frequency = word;
    } else if (interval !== undefined) {
      recurrence.interval = interval;
    } else {
      errors.push({
        field: name,
        error: `must be one of ${BUDGET_FREQUENCIES.join(', ')} (or day, week, month, year) or a whole number`,
      });
    }
  }
  if (frequency) recurrence.frequency = frequency;
  for (const name of ['start', 'end', 'interval'] as const) {
    if (!isUnset(body[name]))
      recurrence[name] = name === 'interval' ? (intervalOf(body[name]) ?? body[name]) : body[name];
  }
  if (!recurrence.frequency && !errors.length)
    errors.push({ field: 'period', error: 'is required: the budget frequency' });
  if (isUnset(recurrence.start))
    errors.push({ field: 'start', error: 'is required: the first day (YYYY-MM-DD)' });
  if (errors.length) throw inputError(errors);
  return recurrence;
}

/**
 * The budget body with its `recurrence` settled before normalisation: a body that carries `recurrence`
 * is left as it is; one in the legacy shape gets it mapped from `start`/`period`/`frequency`; a PUT that
 * names none of them keeps `stored`, the recurrence it edits (a write-back from an older model must not
 * unset the budget's calendar).
 */
export function withRecurrence(body: unknown, stored?: unknown): unknown {
  if (!isPlainObject(body) || !isUnset(body.recurrence)) return body;
  const base = isPlainObject(stored) ? stored : undefined;
  const legacy = ['start', 'period', 'frequency'].some((name) => !isUnset(body[name]));
  if (legacy) return { ...body, recurrence: legacyRecurrence(body, base) };
  return base ? { ...body, recurrence: base } : body;
}
