import { isResourceId } from '@pfs/contracts';
import { AppError, inputError, notFound } from '@pfs/errors';
import {
  parseCreateBody,
  parseEnumParam,
  parseListParam,
  parseSearchParam,
  updateFromRequest,
} from '@pfs/resource-api';
import { categoriesTable, CategoryRepository } from '@pfs/resource-store';
import { Request } from 'express';
import { RESOURCE_ID_PATTERN } from '@pfs/contracts';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler, DeclaredOperation } from '../../http/api-operation';
import { presentCategory } from './categories.presenter';
import { categoriesListQuery } from './categories.schema';

const TYPES = ['expense', 'income', 'system'];

function readFilters(req: Request) {
  const query = req.query as Record<string, unknown>;
  return {
    type: parseEnumParam(query, 'type', TYPES),
    search: parseSearchParam(query, 100),
    ids: parseListParam(query, 'ids', isResourceId),
  };
}

export function categoriesHandlers(deps: ApiDependencies) {
  const categories = new CategoryRepository(deps.dataSource);
  const api = deps.resourceApi;

  const refuseSystem = (category: { type: string }) => {
    if (category.type === 'system') {
      throw new AppError('FORBIDDEN', { description: 'System categories cannot be changed or deleted.' });
    }
  };

  const list: ApiHandler = async (ctx, req, res) => {
    const userId = ctx.userId;
    const params = api.parseList(req, { endpoint: 'categories' });
    const result = await categories.list(userId, params, readFilters(req));
    const ids = result.items.map((item) => item.id);
    // Counts scan entries; remembered per watermark, they cost nothing until the user writes again.
    const counts = new Map(
      Object.entries(
        await api.rememberAtWatermark(
          `counts:categories:${userId}:${ids.join(',')}`,
          result.watermark,
          async () => Object.fromEntries(await categories.countsFor(userId, ids)),
        ),
      ),
    );
    api.respond.sendList(req, res, {
      schema: 'categories',
      params,
      result,
      present: (item) => presentCategory(item, counts.get(item.id)),
    });
  };

  const merge: ApiHandler = async (ctx, req, res) => {
    const body = req.body as { categories?: unknown; category?: unknown };
    const sources = Array.isArray(body?.categories) ? body.categories.map(String) : undefined;
    const target = typeof body?.category === 'string' ? body.category : undefined;
    if (!sources?.length || sources.length > 500 || !sources.every(isResourceId)) {
      throw inputError([{ field: 'categories', error: 'must be a non-empty array of category ids' }]);
    }
    if (!target || !isResourceId(target))
      throw inputError([{ field: 'category', error: 'must be a category id' }]);
    const userId = ctx.userId;
    const found = await categories.findLiveIds(userId, [...new Set([...sources, target])]);
    const missing = [...new Set([...sources, target])].filter((id) => !found.some((c) => c.id === id));
    if (missing.length) throw notFound('Category', missing[0]);
    found.forEach(refuseSystem);
    await categories.merge(userId, sources, target);
    api.respond.sendNoContent(res);
  };

  const get: ApiHandler = async (ctx, req, res) => {
    const userId = ctx.userId;
    const category = await categories.findById(userId, String(req.params.id));
    if (!category) throw notFound('Category', String(req.params.id));
    const counts = await categories.countsFor(userId, [category.id]);
    api.respond.sendObject(
      req,
      res,
      'categories',
      presentCategory(category, counts.get(category.id)),
      category.modifiedAt,
    );
  };

  const create: ApiHandler = async (ctx, req, res) => {
    const state = await parseCreateBody(api.schemas, 'categories', req.body);
    const userId = ctx.userId;
    const created = await categories.create(userId, state);
    const counts = await categories.countsFor(userId, [created.id]);
    api.respond.sendCreated(
      res,
      'categories',
      '/categories',
      created.id,
      presentCategory(created, counts.get(created.id)),
    );
  };

  const update =
    (mode: 'put' | 'patch'): ApiHandler =>
    async (ctx, req, res) => {
      const userId = ctx.userId;
      const id = String(req.params.id);
      const updated = await updateFromRequest({
        req,
        schema: 'categories',
        schemas: api.schemas,
        mode,
        update: (decide) =>
          categories.update(userId, id, async (current, loadRevision) => {
            refuseSystem(current);
            return decide(current, loadRevision);
          }),
        toSnapshot: categoriesTable.options.toSnapshot,
        present: (record) => presentCategory(record),
        what: 'Category',
        id,
      });
      const counts = await categories.countsFor(userId, [updated.id]);
      api.respond.sendObject(
        req,
        res,
        'categories',
        presentCategory(updated, counts.get(updated.id)),
        updated.modifiedAt,
      );
    };

  const remove: ApiHandler = async (ctx, req, res) => {
    const userId = ctx.userId;
    const current = await categories.findById(userId, String(req.params.id));
    if (!current) throw notFound('Category', String(req.params.id));
    refuseSystem(current);
    await categories.delete(userId, current.id);
    api.respond.sendNoContent(res);
  };

  return { list, create, get, replace: update('put'), patch: update('patch'), remove, merge };
}

export type CategoriesHandlers = ReturnType<typeof categoriesHandlers>;

const resource = 'categories';

export const categoriesOperations: Array<DeclaredOperation<CategoriesHandlers>> = [
  {
    resource,
    rel: 'list',
    href: '/categories',
    method: 'GET',
    title: 'List categories',
    hrefSchema: categoriesListQuery,
    target: 'list',
    scope: 'categories:r',
    handler: 'list',
  },
  {
    resource,
    rel: 'create',
    href: '/categories',
    method: 'POST',
    title: 'Create a category',
    submission: 'create',
    target: 'object',
    scope: 'categories:rw',
    handler: 'create',
  },
  {
    resource,
    rel: 'self',
    href: '/categories/{id}',
    method: 'GET',
    title: 'Get a category',
    target: 'object',
    scope: 'categories:r',
    handler: 'get',
  },
  {
    resource,
    rel: 'update',
    href: '/categories/{id}',
    method: 'PUT',
    title: 'Replace a category',
    submission: 'update',
    target: 'object',
    scope: 'categories:rw',
    handler: 'replace',
  },
  {
    resource,
    rel: 'patch',
    href: '/categories/{id}',
    method: 'PATCH',
    title: 'Change some fields (JSON merge patch)',
    submission: 'patch',
    target: 'object',
    scope: 'categories:rw',
    handler: 'patch',
  },
  {
    resource,
    rel: 'delete',
    href: '/categories/{id}',
    method: 'DELETE',
    title: 'Delete a category',
    scope: 'categories:rw',
    handler: 'remove',
  },
  {
    resource,
    rel: 'merge',
    href: '/categories/merge',
    method: 'POST',
    title: 'Merge categories into one',
    submission: {
      type: 'object',
      required: ['categories', 'category'],
      properties: {
        categories: {
          type: 'array',
          minItems: 1,
          maxItems: 500,
          items: { type: 'string', pattern: `^${RESOURCE_ID_PATTERN}$` },
        },
        category: { type: 'string', pattern: `^${RESOURCE_ID_PATTERN}$` },
      },
    },
    scope: 'categories:rw',
    handler: 'merge',
  },
];
