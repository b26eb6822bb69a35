import { isResourceId } from '@pfs/contracts';
import { inputError, notFound } from '@pfs/errors';
import { parseListParam } from '@pfs/resource-api';
import {
  CategoryRepository,
  type Snapshot,
  type Tag,
  TagRepository,
  tagsTable,
  type UserRead,
} from '@pfs/resource-store';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler } from '../../http/api-operation';
import { labelFilters } from '../labels/label-filters';
import { namedLabelOperations } from '../labels/named-label.operations';
import { labelId } from '../labels/named-label.schema';
import { presentTag } from './tags.presenter';
import { tagsListQuery } from './tags.schema';

const TYPES = ['expense', 'income'];
/** The reference's default page size for tags. */
const TAGS_PER_PAGE = 50;

function readFilters(query: Record<string, unknown>) {
  return {
    ...labelFilters(query, TYPES),
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

/** A tag's category must be one of the user's live categories. */
const checkCategory = (categories: CategoryRepository) => (read: UserRead) => async (state: Snapshot) => {
  if (state.category === undefined) return;
  const [found] = await categories.findLiveIds(read, [String(state.category)]);
  if (!found) throw inputError([{ field: 'category', error: 'must be the id of one of your categories' }]);
};

/** POST /tags/merge: the source tags' uses move to one tag or to a category, then the sources go. */
function mergeHandler(
  tags: TagRepository,
  categories: CategoryRepository,
  deps: ApiDependencies,
): ApiHandler {
  return async (ctx, req, res) => {
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
    const wanted = [...new Set(targets[0] === 'tag' ? [...sources, targetId] : sources)];
    const found = await tags.findLiveIds(deps.store.read(ctx), wanted);
    const missing = wanted.filter((id) => !found.some((tag) => tag.id === id));
    if (missing.length) throw notFound('Tag', missing[0]);
    if (
      targets[0] === 'category' &&
      !(await categories.findLiveIds(deps.store.read(ctx), [targetId])).length
    ) {
      throw notFound('Category', targetId);
    }
    await deps.store.change(ctx, (change) => tags.merge(change, sources, { [targets[0]]: targetId }));
    deps.resourceApi.respond.sendNoContent(res);
  };
}

export const tagsLabels = namedLabelOperations({
  resource: 'tags',
  singular: 'tag',
  what: 'Tag',
  listQuery: tagsListQuery,
  defaultPerPage: TAGS_PER_PAGE,
  filters: readFilters,
  toSnapshot: (record: Tag) => tagsTable.options.toSnapshot(record),
  present: presentTag,
  mergeLink: {
    title: 'Merge tags into one tag, or into a category',
    submission: {
      type: 'object',
      required: ['tags'],
      properties: {
        tags: { type: 'array', minItems: 1, maxItems: 500, items: labelId },
        tag: labelId,
        category: labelId,
      },
    },
  },
  bind: (deps: ApiDependencies) => {
    const tags = deps.repos.tags;
    const categories = deps.repos.categories;
    return {
      repository: tags,
      check: checkCategory(categories),
      merge: mergeHandler(tags, categories, deps),
    };
  },
});
