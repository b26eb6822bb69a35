import { isResourceId } from '@pfs/contracts';
import { AppError, inputError, notFound } from '@pfs/errors';
import {
  parseCreateBody,
  parseEnumParam,
  parseListParam,
  parseSearchParam,
  requireScope,
  updateFromRequest,
  userIdOf,
} from '@pfs/resource-api';
import { categoriesTable, CategoryRepository } from '@pfs/resource-store';
import { Request, Router } from 'express';
import type { ApiDependencies } from '../../dependencies';
import { presentCategory } from './categories.presenter';

const TYPES = ['expense', 'income', 'system'];

function readFilters(req: Request) {
  const query = req.query as Record<string, unknown>;
  return {
    type: parseEnumParam(query, 'type', TYPES),
    search: parseSearchParam(query, 100),
    ids: parseListParam(query, 'ids', isResourceId),
  };
}

export function categoriesRoutes(deps: ApiDependencies): Router {
  const router = Router();
  const categories = new CategoryRepository(deps.dataSource);
  const api = deps.resourceApi;

  const refuseSystem = (category: { type: string }) => {
    if (category.type === 'system') {
      throw new AppError('FORBIDDEN', { description: 'System categories cannot be changed or deleted.' });
    }
  };

  router.get('/categories', requireScope('categories:r'), async (req, res) => {
    const userId = userIdOf(req);
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
  });

  router.post('/categories/merge', requireScope('categories:rw'), async (req, res) => {
    const body = req.body as { categories?: unknown; category?: unknown };
    const sources = Array.isArray(body?.categories) ? body.categories.map(String) : undefined;
    const target = typeof body?.category === 'string' ? body.category : undefined;
    if (!sources?.length || sources.length > 500 || !sources.every(isResourceId)) {
      throw inputError([{ field: 'categories', error: 'must be a non-empty array of category ids' }]);
    }
    if (!target || !isResourceId(target))
      throw inputError([{ field: 'category', error: 'must be a category id' }]);
    const userId = userIdOf(req);
    const found = await categories.findLiveIds(userId, [...new Set([...sources, target])]);
    const missing = [...new Set([...sources, target])].filter((id) => !found.some((c) => c.id === id));
    if (missing.length) throw notFound('Category', missing[0]);
    found.forEach(refuseSystem);
    await categories.merge(userId, sources, target);
    api.respond.sendNoContent(res);
  });

  router.get('/categories/:id', requireScope('categories:r'), async (req, res) => {
    const userId = userIdOf(req);
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
  });

  router.post('/categories', requireScope('categories:rw'), async (req, res) => {
    const state = await parseCreateBody(api.schemas, 'categories', req.body);
    const userId = userIdOf(req);
    const created = await categories.create(userId, state);
    const counts = await categories.countsFor(userId, [created.id]);
    api.respond.sendCreated(
      res,
      'categories',
      '/categories',
      created.id,
      presentCategory(created, counts.get(created.id)),
    );
  });

  const update = (mode: 'put' | 'patch') => async (req: Request, res: import('express').Response) => {
    const userId = userIdOf(req);
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
  router.put('/categories/:id', requireScope('categories:rw'), update('put'));
  router.patch('/categories/:id', requireScope('categories:rw'), update('patch'));

  router.delete('/categories/:id', requireScope('categories:rw'), async (req, res) => {
    const userId = userIdOf(req);
    const current = await categories.findById(userId, String(req.params.id));
    if (!current) throw notFound('Category', String(req.params.id));
    refuseSystem(current);
    await categories.delete(userId, current.id);
    api.respond.sendNoContent(res);
  });

  return router;
}
