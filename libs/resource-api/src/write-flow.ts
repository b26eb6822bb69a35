import { notFound } from '@pfs/errors';
import type { DecideUpdate as Decide, Snapshot, SyncedRecord } from '@pfs/resource-store';
import type { Request } from 'express';
import { assertExtraSize } from './representation';
import type { SchemaRegistry } from './schema-registry';
import { applyMergePatch, readClientModified, resolveWrite } from './writes';

export interface UpdateFlowOptions<T extends SyncedRecord> {
  req: Request;
  /** The resource's schema name (its writable fields and rules). */
  schema: string;
  schemas: SchemaRegistry;
  /** PUT replaces (an omitted field is unset); PATCH is a JSON merge patch (RFC 7396). */
  mode: 'put' | 'patch';
  /** Usually `repository.update(userId, id, decide)`; undefined when the object does not exist. */
  update: (decide: Decide<T>) => Promise<T | undefined>;
  toSnapshot: (record: T) => Snapshot;
  /** The representation, for the 409 body. */
  present: (record: T) => unknown;
  /** Resource-specific checks of the final state (e.g. a referenced id belongs to the user). */
  check?: (state: Snapshot) => Promise<void>;
  /** For the 404 message. */
  what: string;
  id: string;
}

/**
 * PUT and PATCH of every resource: `modified` required, normalised body (read-only fields ignored,
 * placeholders unset), stale writes merged three-way or refused with 409, the final state validated by
 * the published schema. Runs inside the repository's change transaction.
 */
export async function updateFromRequest<T extends SyncedRecord>(options: UpdateFlowOptions<T>): Promise<T> {
  const clientModified = readClientModified(options.req.body);
  const { modified: _ignored, ...body } = options.schemas.normalizeUpdate(options.schema, options.req.body);
  const patch = options.req.body as Record<string, unknown>;
  const intended = (edited: Snapshot): Snapshot => {
    if (options.mode === 'put') return body;
    const applied = applyMergePatch(edited, { ...patch, modified: undefined }) as Snapshot;
    const { modified: _m, ...state } = options.schemas.normalizeUpdate(options.schema, applied);
    return state;
  };
  const updated = await options.update(async (current, loadRevision) => {
    const state = await resolveWrite({
      current: options.toSnapshot(current),
      currentModified: current.modifiedAt,
      clientModified,
      intended,
      loadRevision,
      presentCurrent: () => options.present(current),
    });
    options.schemas.assertValidState(options.schema, state);
    assertExtraSize(state.extra);
    await options.check?.(state);
    return state;
  });
  if (!updated) throw notFound(options.what, options.id);
  return updated;
}

/**
 * POST bodies: normalised, validated by the schema, `extra` bounded, then resource checks. `Body` is the type
 * derived from that schema (`WriteBodyOf`).
 */
export async function parseCreateBody<Body extends Snapshot = Snapshot>(
  schemas: SchemaRegistry,
  schema: string,
  body: unknown,
  check?: (state: Body) => Promise<void>,
): Promise<Body> {
  const state = schemas.parseCreate<Body>(schema, body);
  assertExtraSize(state.extra);
  await check?.(state);
  return state;
}
