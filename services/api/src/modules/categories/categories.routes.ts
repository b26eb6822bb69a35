import { isResourceId } from '@pfs/contracts';
import { AppError, inputError, notFound } from '@pfs/errors';
import { type Category, categoriesTable, CategoryRepository } from '@pfs/resource-store';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler } from '../../http/api-operation';
import { labelFilters } from '../labels/label-filters';
import { namedLabelOperations } from '../labels/named-label.operations';
import { labelId } from '../labels/named-label.schema';
import { presentCategory } from './categories.presenter';
import { categoriesListQuery } from './categories.schema';

const TYPES = ['expense', 'income', 'system'];

/** System categories are read-only: neither changed, deleted nor merged. */
function refuseSystem(category: { type: string }) {
  if (category.type === 'system') {
    throw new AppError('FORBIDDEN', { description: 'System categories cannot be changed or deleted.' });
  }
}

/** POST /categories/merge: every source category's uses move to one target category, then the sources go. */
function mergeHandler(categories: CategoryRepository, deps: ApiDependencies): ApiHandler {
  return async (ctx, req, res) => {
    const body = req.body as { categories?: unknown; category?: unknown };
    const sources = Array.isArray(body?.categories) ? body.categories.map(String) : undefined;
    const target = typeof body?.category === 'string' ? body.category : undefined;
    if (!sources?.length || sources.length > 500 || !sources.every(isResourceId)) {
      throw inputError([{ field: 'categories', error: 'must be a non-empty array of category ids' }]);
    }
    if (!target || !isResourceId(target))
      throw inputError([{ field: 'category', error: 'must be a category id' }]);
    const found = await categories.findLiveIds(deps.store.read(ctx), [...new Set([...sources, target])]);
    const missing = [...new Set([...sources, target])].filter((id) => !found.some((c) => c.id === id));
    if (missing.length) throw notFound('Category', missing[0]);
    found.forEach(refuseSystem);
    await deps.store.change(ctx, (change) => categories.merge(change, sources, target));
    deps.resourceApi.respond.sendNoContent(res);
  };
}

export const categoriesLabels = namedLabelOperations({
  resource: 'categories',
  singular: 'category',
  what: 'Category',
  listQuery: categoriesListQuery,
  filters: (query) => labelFilters(query, TYPES),
  toSnapshot: (record: Category) => categoriesTable.options.toSnapshot(record),
  present: presentCategory,
  mergeLink: {
    title: 'Merge categories into one',
    submission: {
      type: 'object',
      required: ['categories', 'category'],
      properties: {
        categories: {
          type: 'array',
          minItems: 1,
          maxItems: 500,
          items: labelId,
        },
        category: labelId,
      },
    },
  },
  bind: (deps: ApiDependencies) => {
    const categories = deps.repos.categories;
    return { repository: categories, guard: refuseSystem, merge: mergeHandler(categories, deps) };
  },
});
