import { isResourceId } from '@pfs/contracts';
import { inputError, notFound } from '@pfs/errors';
import {
  parseCreateBody,
  parseEnumParam,
  parseListParam,
  parseSearchParam,
  updateFromRequest,
} from '@pfs/resource-api';
import { CategoryRepository, Snapshot, TagRepository, tagsTable } from '@pfs/resource-store';
import type { Request } from 'express';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler, DeclaredOperation } from '../../http/api-operation';
import { presentTag } from './tags.presenter';
import { id, tagsListQuery } from './tags.schema';

const TYPES = ['expense', 'income'];
/** The reference's default page size for tags. */
const TAGS_PER_PAGE = 50;

function readFilters(req: Request) {
  const query = req.query as Record<string, unknown>;
  return {
    type: parseEnumParam(query, 'type', TYPES),
    search: parseSearchParam(query, 100),
    ids: parseListParam(query, 'ids', isResourceId),
    categories: parseListParam(query, 'categories', isResourceId),
    usedWithTags: nonEmpty(parseListParam(query, 'used_with_tags', isResourceId)),
    usedWithTagsMin: readUsedWithTagsMin(query.used_with_tags_min),
    usedWithCategories: nonEmpty(parseListParam(query, 'used_with_categories', isResourceId)),
  };
}

/** An empty `used_with_*` list filters nothing (unlike `categories=`, it has no "none" meaning). */
const nonEmpty = (ids: string[] | undefined) => (ids?.length ? ids : undefined);

function readUsedWithTagsMin(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  const value = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (value < 1)
    throw inputError([{ field: 'used_with_tags_min', error: 'must be an integer of at least 1' }]);
  return value;
}

export function tagsHandlers(deps: ApiDependencies) {
  const tags = new TagRepository(deps.dataSource);
  const categories = new CategoryRepository(deps.dataSource);
  const api = deps.resourceApi;

  /** A tag's category must be one of the user's live categories. */
  const checkCategory = (userId: string) => async (state: Snapshot) => {
    if (state.category === undefined) return;
    const [found] = await categories.findLiveIds(userId, [String(state.category)]);
    if (!found) throw inputError([{ field: 'category', error: 'must be the id of one of your categories' }]);
  };

  const list: ApiHandler = async (ctx, req, res) => {
    const userId = ctx.userId;
    const params = api.parseList(req, { endpoint: 'tags', defaultPerPage: TAGS_PER_PAGE });
    const result = await tags.list(userId, params, readFilters(req));
    const ids = result.items.map((item) => item.id);
    // Counts scan entries; remembered per watermark, they cost nothing until the user writes again.
    const counts = new Map(
      Object.entries(
        await api.rememberAtWatermark(`counts:tags:${userId}:${ids.join(',')}`, result.watermark, async () =>
          Object.fromEntries(await tags.countsFor(userId, ids)),
        ),
      ),
    );
    api.respond.sendList(req, res, {
      schema: 'tags',
      params,
      result,
      present: (item) => presentTag(item, counts.get(item.id)),
    });
  };

  const merge: ApiHandler = async (ctx, req, res) => {
    const body = req.body as { tags?: unknown; tag?: unknown; category?: unknown; account?: unknown };
    const sources = Array.isArray(body?.tags) ? body.tags.map(String) : undefined;
    if (!sources?.length || sources.length > 500 || !sources.every(isResourceId)) {
      throw inputError([{ field: 'tags', error: 'must be a non-empty array of tag ids' }]);
    }
    const targets = (['tag', 'category', 'account'] as const).filter((key) => body[key] !== undefined);
    if (targets.length !== 1) {
      throw inputError([{ field: 'tag', error: 'send exactly one of tag, category or account' }]);
    }
    if (targets[0] === 'account') {
      throw inputError([{ field: 'account', error: 'merging tags into an account is not supported' }]);
    }
    const targetId = String(body[targets[0]]);
    if (!isResourceId(targetId))
      throw inputError([{ field: targets[0], error: `must be a ${targets[0]} id` }]);
    const userId = ctx.userId;
    const wanted = [...new Set(targets[0] === 'tag' ? [...sources, targetId] : sources)];
    const found = await tags.findLiveIds(userId, wanted);
    const missing = wanted.filter((id) => !found.some((tag) => tag.id === id));
    if (missing.length) throw notFound('Tag', missing[0]);
    if (targets[0] === 'category' && !(await categories.findLiveIds(userId, [targetId])).length) {
      throw notFound('Category', targetId);
    }
    await tags.merge(userId, sources, { [targets[0]]: targetId });
    api.respond.sendNoContent(res);
  };

  const get: ApiHandler = async (ctx, req, res) => {
    const userId = ctx.userId;
    const tag = await tags.findById(userId, String(req.params.id));
    if (!tag) throw notFound('Tag', String(req.params.id));
    const counts = await tags.countsFor(userId, [tag.id]);
    api.respond.sendObject(req, res, 'tags', presentTag(tag, counts.get(tag.id)), tag.modifiedAt);
  };

  const create: ApiHandler = async (ctx, req, res) => {
    const userId = ctx.userId;
    const state = await parseCreateBody(api.schemas, 'tags', req.body, checkCategory(userId));
    const created = await tags.create(userId, state);
    const counts = await tags.countsFor(userId, [created.id]);
    api.respond.sendCreated(res, 'tags', '/tags', created.id, presentTag(created, counts.get(created.id)));
  };

  const update =
    (mode: 'put' | 'patch'): ApiHandler =>
    async (ctx, req, res) => {
      const userId = ctx.userId;
      const id = String(req.params.id);
      const updated = await updateFromRequest({
        req,
        schema: 'tags',
        schemas: api.schemas,
        mode,
        update: (decide) => tags.update(userId, id, decide),
        toSnapshot: tagsTable.options.toSnapshot,
        present: (record) => presentTag(record),
        check: checkCategory(userId),
        what: 'Tag',
        id,
      });
      const counts = await tags.countsFor(userId, [updated.id]);
      api.respond.sendObject(
        req,
        res,
        'tags',
        presentTag(updated, counts.get(updated.id)),
        updated.modifiedAt,
      );
    };

  const remove: ApiHandler = async (ctx, req, res) => {
    const deleted = await tags.delete(ctx.userId, String(req.params.id));
    if (!deleted) throw notFound('Tag', String(req.params.id));
    api.respond.sendNoContent(res);
  };

  return { list, create, get, replace: update('put'), patch: update('patch'), remove, merge };
}

export type TagsHandlers = ReturnType<typeof tagsHandlers>;

const resource = 'tags';

export const tagsOperations: Array<DeclaredOperation<TagsHandlers>> = [
  {
    resource,
    rel: 'list',
    href: '/tags',
    method: 'GET',
    title: 'List tags',
    hrefSchema: tagsListQuery,
    target: 'list',
    scope: 'tags:r',
    handler: 'list',
  },
  {
    resource,
    rel: 'create',
    href: '/tags',
    method: 'POST',
    title: 'Create a tag',
    submission: 'create',
    target: 'object',
    scope: 'tags:rw',
    handler: 'create',
  },
  {
    resource,
    rel: 'self',
    href: '/tags/{id}',
    method: 'GET',
    title: 'Get a tag',
    target: 'object',
    scope: 'tags:r',
    handler: 'get',
  },
  {
    resource,
    rel: 'update',
    href: '/tags/{id}',
    method: 'PUT',
    title: 'Replace a tag',
    submission: 'update',
    target: 'object',
    scope: 'tags:rw',
    handler: 'replace',
  },
  {
    resource,
    rel: 'patch',
    href: '/tags/{id}',
    method: 'PATCH',
    title: 'Change some fields (JSON merge patch)',
    submission: 'patch',
    target: 'object',
    scope: 'tags:rw',
    handler: 'patch',
  },
  {
    resource,
    rel: 'delete',
    href: '/tags/{id}',
    method: 'DELETE',
    title: 'Delete a tag',
    scope: 'tags:rw',
    handler: 'remove',
  },
  {
    resource,
    rel: 'merge',
    href: '/tags/merge',
    method: 'POST',
    title: 'Merge tags into one tag, or into a category',
    submission: {
      type: 'object',
      required: ['tags'],
      properties: {
        tags: { type: 'array', minItems: 1, maxItems: 500, items: id },
        tag: id,
        category: id,
      },
    },
    scope: 'tags:rw',
    handler: 'merge',
  },
];
