import { inputError } from '@pfs/errors';

const DAY_MS = 86_400_000;
/** `00`…`99`: two-digit fields without padStart. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));
/** `000`…`999`: milliseconds. */
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));

/** The last UTC day formatted (`YYYY-MM-DD`, as toISOString writes it): the objects of a page share a few days. */
let cachedDay = Number.NaN;
let cachedDayText = '';

/**
 * A time's UTC day (`YYYY-MM-DD`, from toISOString itself, once per day seen) and its time of day `HH:MM:SS`,
 * with the milliseconds: toISOString's own fields, without a toISOString call per timestamp (it was the larger
 * part of presenting a page of 200 entries: two timestamps each; bench profile, issue 13). Undefined for an
 * invalid date (whose toISOString throws) and a year outside 0000-9999.
 */
function utcFields(date: Date): { day: string; time: string; ms: number } | undefined {
  const epochMs = date.getTime();
  if (!Number.isFinite(epochMs)) return undefined;
  const day = Math.floor(epochMs / DAY_MS);
  if (day !== cachedDay) {
    cachedDayText = new Date(day * DAY_MS).toISOString().slice(0, -14);
    cachedDay = day;
  }
  // Years outside 0000-9999 (`+010000-…`): toISOString's own form, which the callers slice as they always did.
  if (cachedDayText.length !== 10) return undefined;
  const inDay = epochMs - day * DAY_MS;
  const seconds = Math.floor(inDay / 1000);
  const time = `${TWO_DIGITS[Math.floor(seconds / 3600)]}:${TWO_DIGITS[Math.floor(seconds / 60) % 60]}:${TWO_DIGITS[seconds % 60]}`;
  return { day: cachedDayText, time, ms: inDay % 1000 };
}

/** `YYYY-MM-DDTHH:MM:SSZ`: the spec's timestamp form (RFC 3339 without fractions). */
export function formatTimestamp(date: Date): string {
  const fields = utcFields(date);
  if (!fields) return `${date.toISOString().slice(0, 19)}Z`;
  return `${fields.day}T${fields.time}Z`;
}

/** `YYYY-MM-DD`. */
export function formatDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The opaque `modified` string, `YYYY-MM-DD HH:MM:SS.SSS` in UTC. Stored `modified_at` values are truncated
 * to milliseconds, so this string identifies one stored revision exactly.
 */
export function formatModified(date: Date): string {
  const fields = utcFields(date); // no toISOString, no regexps: this runs for every object of every page
  if (!fields) {
    const iso = date.toISOString();
    return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
  }
  return `${fields.day} ${fields.time}.${THREE_DIGITS[fields.ms]}`;
}

const MODIFIED_FORM = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}\.\d{3})$/;

/** Reads a `modified` string back; undefined when it is not in the form the server issues. */
export function parseModified(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const match = MODIFIED_FORM.exec(value);
  if (!match) return undefined;
  const date = new Date(`${match[1]}T${match[2]}Z`);
  if (Number.isNaN(date.getTime()) || formatModified(date) !== value) return undefined;
  return date;
}

/**
 * Drops null/undefined values and empty arrays, recursively (the spec: "responses omit null values and
 * empty arrays"). `extra` is the client's own JSON and is returned unchanged, so it is never compacted.
 */
export function compact<T extends Record<string, unknown>>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const key in value) {
    const item: unknown = value[key];
    if (item === null || item === undefined) continue;
    if (Array.isArray(item)) {
      if (item.length) out[key] = item;
    } else if (key !== 'extra' && typeof item === 'object' && !(item instanceof Date)) {
      out[key] = compact(item as Record<string, unknown>);
    } else {
      out[key] = item;
    }
  }
  return out as T;
}

/** `extra` is stored verbatim; its serialised size is bounded so one client cannot grow a row without limit. */
export const MAX_EXTRA_BYTES = 16_384;

export function assertExtraSize(extra: unknown): void {
  if (extra === undefined || extra === null) return;
  if (Buffer.byteLength(JSON.stringify(extra), 'utf8') > MAX_EXTRA_BYTES) {
    throw inputError([{ field: 'extra', error: `must be at most ${MAX_EXTRA_BYTES} bytes as JSON` }]);
  }
}
