import { notFound } from '@pfs/errors';
import { parseCreateBody, updateFromRequest } from '@pfs/resource-api';
import type { Actor, SyncedRecord } from '@pfs/resource-store';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler } from '../../http/api-operation';
import type { NamedLabelSpec } from './named-label';

/** The handlers of a named label resource, by the names its operations give. */
export function namedLabelHandlers<T extends SyncedRecord, F>(
  spec: NamedLabelSpec<T, F>,
  deps: ApiDependencies,
) {
  const { resource, what, present } = spec;
  const { repository, guard, check, merge } = spec.bind(deps);
  const api = deps.resourceApi;

  const countsOf = async (actor: Actor, record: T) =>
    (await repository.countsFor(deps.store.read(actor), [record.id])).get(record.id);

  const list: ApiHandler = async (ctx, req, res) => {
    const userId = ctx.userId;
    const params = api.parseList(req, { endpoint: resource, defaultPerPage: spec.defaultPerPage });
    const result = await repository.list(
      deps.store.read(ctx),
      params,
      spec.filters(req.query as Record<string, unknown>),
    );
    const ids = result.items.map((item) => item.id);
    // Counts scan entries; remembered per watermark, they cost nothing until the user writes again.
    const counts = new Map(
      Object.entries(
        await api.rememberAtWatermark(
          `counts:${resource}:${userId}:${ids.join(',')}`,
          result.watermark,
          async () => Object.fromEntries(await repository.countsFor(deps.store.read(ctx), ids)),
        ),
      ),
    );
    api.respond.sendList(req, res, {
      schema: resource,
      params,
      result,
      present: (item) => present(item, counts.get(item.id)),
    });
  };

  const get: ApiHandler = async (ctx, req, res) => {
    const record = await repository.findById(deps.store.read(ctx), String(req.params.id));
    if (!record) throw notFound(what, String(req.params.id));
    const counts = await countsOf(ctx, record);
    api.respond.sendObject(req, res, resource, present(record, counts), record.modifiedAt);
  };

  const create: ApiHandler = async (ctx, req, res) => {
    const state = await parseCreateBody(api.schemas, resource, req.body, check?.(deps.store.read(ctx)));
    const created = await deps.store.change(ctx, (change) => repository.create(change, state));
    const counts = await countsOf(ctx, created);
    api.respond.sendCreated(res, resource, `/${resource}`, created.id, present(created, counts));
  };

  const update =
    (mode: 'put' | 'patch'): ApiHandler =>
    async (ctx, req, res) => {
      const id = String(req.params.id);
      const updated = await updateFromRequest({
        req,
        schema: resource,
        schemas: api.schemas,
        mode,
        update: (decide) =>
          deps.store.change(ctx, (change) =>
            repository.update(
              change,
              id,
              guard
                ? async (current, loadRevision) => {
                    guard(current);
                    return decide(current, loadRevision);
                  }
                : decide,
            ),
          ),
        toSnapshot: spec.toSnapshot,
        present: (record) => present(record),
        check: check?.(deps.store.read(ctx)),
        what,
        id,
      });
      const counts = await countsOf(ctx, updated);
      api.respond.sendObject(req, res, resource, present(updated, counts), updated.modifiedAt);
    };

  const remove: ApiHandler = async (ctx, req, res) => {
    const id = String(req.params.id);
    if (guard) {
      // A guarded record is read first: the guard decides on what is stored before anything is deleted.
      const current = await repository.findById(deps.store.read(ctx), id);
      if (!current) throw notFound(what, id);
      guard(current);
      await deps.store.change(ctx, (change) => repository.delete(change, current.id));
    } else if (!(await deps.store.change(ctx, (change) => repository.delete(change, id)))) {
      throw notFound(what, id);
    }
    api.respond.sendNoContent(res);
  };

  return { list, create, get, replace: update('put'), patch: update('patch'), remove, merge };
}

export type NamedLabelHandlers = ReturnType<typeof namedLabelHandlers>;
