import { isResourceId } from '@pfs/contracts';
import { inputError, notFound } from '@pfs/errors';
import { parseListParam, type SubmissionOf } from '@pfs/resource-api';
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
import { mergeLabelId, mergeLabelIds } from '../labels/named-label.schema';
import { presentTag } from './tags.presenter';
import { tagsListQuery } from './tags.schema';

const TYPES = ['expense', 'income'];

/** POST /tags/merge's body, published by the merge link and validated by the same object. */
const mergeSubmission = {
  type: 'object',
  required: ['tags'],
  properties: { tags: mergeLabelIds, tag: mergeLabelId, category: mergeLabelId },
} as const;
type MergeBody = SubmissionOf<typeof mergeSubmission>;

/** The one cross-member rule of a tag merge: exactly one target, a tag or a category (never an account). */
export function assertOneMergeTarget(body: MergeBody & { account?: unknown }): 'tag' | 'category' {
  const targets = (['tag', 'category', 'account'] as const).filter((key) => body[key] !== undefined);
  if (targets.length !== 1) {
    throw inputError([{ field: 'tag', error: 'send exactly one of tag, category or account' }]);
  }
  if (targets[0] === 'account') {
    throw inputError([{ field: 'account', error: 'merging tags into an account is not supported' }]);
  }
  return targets[0];
}
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
  const readMerge = deps.resourceApi.schemas.submissionReader<MergeBody>(mergeSubmission, {
    tags: 'must be a non-empty array of tag ids',
    tag: 'must be a tag id',
    category: 'must be a category id',
  });
  return async (ctx, req, res) => {
    const body = readMerge(req.body);
    const sources = body.tags.map(String);
    const into = assertOneMergeTarget(body);
    const targetId = String(body[into]);
    const wanted = [...new Set(into === 'tag' ? [...sources, targetId] : sources)];
    const found = await tags.findLiveIds(deps.store.read(ctx), wanted);
    const missing = wanted.filter((id) => !found.some((tag) => tag.id === id));
    if (missing.length) throw notFound('Tag', missing[0]);
    if (into === 'category' && !(await categories.findLiveIds(deps.store.read(ctx), [targetId])).length) {
      throw notFound('Category', targetId);
    }
    await deps.store.change(ctx, (change) => tags.merge(change, sources, { [into]: targetId }));
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
    submission: mergeSubmission,
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
