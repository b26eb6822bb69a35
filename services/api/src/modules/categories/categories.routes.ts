import { AppError, notFound } from '@pfs/errors';
import type { SubmissionOf } from '@pfs/resource-api';
import { type Category, categoriesTable, CategoryRepository } from '@pfs/resource-store';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler } from '../../http/api-operation';
import { labelFilters } from '../labels/label-filters';
import { namedLabelOperations } from '../labels/named-label.operations';
import { labelId, mergeLabelIds } from '../labels/named-label.schema';
import { presentCategory } from './categories.presenter';
import { categoriesListQuery } from './categories.schema';

const TYPES = ['expense', 'income', 'system'];

/** System categories are read-only: neither changed, deleted nor merged. */
function refuseSystem(category: { type: string }) {
  if (category.type === 'system') {
    throw new AppError('FORBIDDEN', { description: 'System categories cannot be changed or deleted.' });
  }
}

/** POST /categories/merge's body, published by the merge link and validated by the same object. */
const mergeSubmission = {
  type: 'object',
  required: ['categories', 'category'],
  properties: { categories: mergeLabelIds, category: labelId },
} as const;
type MergeBody = SubmissionOf<typeof mergeSubmission>;

/** POST /categories/merge: every source category's uses move to one target category, then the sources go. */
function mergeHandler(categories: CategoryRepository, deps: ApiDependencies): ApiHandler {
  const readMerge = deps.resourceApi.schemas.submissionReader<MergeBody>(mergeSubmission, {
    categories: 'must be a non-empty array of category ids',
    category: 'must be a category id',
  });
  return async (ctx, req, res) => {
    const body = readMerge(req.body);
    const sources = body.categories.map(String);
    const target = body.category;
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
    submission: mergeSubmission,
  },
  bind: (deps: ApiDependencies) => {
    const categories = deps.repos.categories;
    return { repository: categories, guard: refuseSystem, merge: mergeHandler(categories, deps) };
  },
});
