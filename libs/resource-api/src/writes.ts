import { AppError, inputError } from '@pfs/errors';
import type { Snapshot } from '@pfs/resource-store';
import { parseModified } from './representation';

/** RFC 7396 JSON merge patch: null removes a member, objects merge recursively, anything else replaces. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const result: Record<string, unknown> =
    target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...(target as object) } : {};
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key], value);
  }
  return result;
}

/** Writes must carry the `modified` the client last saw; a missing or malformed one is a 400. */
export function readClientModified(body: unknown): Date {
  const raw = (body as Record<string, unknown> | null)?.modified;
  if (raw === undefined) throw inputError([{ field: 'modified', error: 'is required on every write' }]);
  const modified = parseModified(raw);
  if (!modified) {
    throw new AppError('MODIFIED_INVALID', {
      description: 'modified must be the value the server sent for this object; it is read-only.',
      fields: [{ field: 'modified', error: 'must be a modified value issued for this object' }],
    });
  }
  return modified;
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` (jsonb reorders keys) compare equal. */
function canonical(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/**
 * Three-way merge of top-level fields: the client changed some fields relative to `base` (the revision it
 * last saw), the server others. Different fields (or the same new value) merge; otherwise undefined.
 */
export function threeWayMerge(base: Snapshot, current: Snapshot, incoming: Snapshot): Snapshot | undefined {
  const merged: Snapshot = { ...current };
  const keys = new Set([...Object.keys(base), ...Object.keys(current), ...Object.keys(incoming)]);
  for (const key of keys) {
    const clientChanged = !same(base[key], incoming[key]);
    if (!clientChanged) continue;
    const serverChanged = !same(base[key], current[key]);
    if (serverChanged && !same(current[key], incoming[key])) return undefined;
    if (incoming[key] === undefined) delete merged[key];
    else merged[key] = incoming[key];
  }
  return merged;
}

export interface ResolveWriteOptions {
  /** The object as stored now, and its `modified`. */
  current: Snapshot;
  currentModified: Date;
  /** The `modified` the client sent. */
  clientModified: Date;
  /** Builds the client's intended state from the state it edited (PUT: the body; PATCH: patch applied). */
  intended: (edited: Snapshot) => Snapshot;
  /** Looks up the stored revision with that `modified`. */
  loadRevision: (modifiedAt: Date) => Promise<Snapshot | undefined>;
  /** The current object's representation, sent with a 409. */
  presentCurrent: () => unknown;
}

/**
 * The update rule of every resource: the current `modified` applies the write; an older one issued for
 * this object merges three-way when the changes touch different fields, else 409 with the current object;
 * a value never issued for this object is a 400.
 */
export async function resolveWrite(options: ResolveWriteOptions): Promise<Snapshot> {
  if (options.clientModified.getTime() === options.currentModified.getTime()) {
    return options.intended(options.current);
  }
  const base =
    options.clientModified < options.currentModified
      ? await options.loadRevision(options.clientModified)
      : undefined;
  if (!base) {
    throw new AppError('MODIFIED_INVALID', {
      description: 'modified is not a value the server issued for this object; fetch it again.',
      fields: [{ field: 'modified', error: 'must be a modified value issued for this object' }],
    });
  }
  const merged = threeWayMerge(base, options.current, options.intended(base));
  if (!merged) {
    throw new AppError('CONFLICT', {
      description: 'The object was changed since you fetched it and the changes overlap; fetch it again.',
      body: { current: options.presentCurrent() },
    });
  }
  return merged;
}
