import { countsOf, labelId, labelListQuery, labelSchema } from '../labels/named-label.schema';

export const tagsListQuery = labelListQuery({
  defaultPerPage: 50,
  types: ['expense', 'income'],
  more: {
    categories: {
      type: 'string',
      description: 'Comma-separated category ids; empty: tags without a category.',
    },
    used_with_tags: {
      type: 'string',
      description:
        'Comma-separated tag ids: the tags used on entries together with any of them (those tags excluded).',
    },
    used_with_tags_min: {
      type: 'integer',
      minimum: 1,
      default: 1,
      description: 'With used_with_tags: on at least this many entries.',
    },
    used_with_categories: {
      type: 'string',
      description: 'Comma-separated category ids: the tags used on entries of any of those categories.',
    },
  },
});

export const tagsSchema = labelSchema({
  name: 'tags',
  title: 'Tag',
  description: 'A tag of entries, typed expense or income, optionally under a primary category.',
  type: { type: 'string', enum: ['expense', 'income'] },
  afterType: { category: { ...labelId, description: 'Primary category id.' } },
  counts: countsOf(['entries', 'unsorted_entries', 'budgets']),
});
