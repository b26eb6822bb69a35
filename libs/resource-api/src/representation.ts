import { inputError } from '@pfs/errors';

/** `YYYY-MM-DDTHH:MM:SSZ`: the spec's timestamp form (RFC 3339 without fractions). */
export function formatTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
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
  const iso = date.toISOString(); // slices, not regexps: this runs for every object of every page
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
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
