import { RESOURCE_ID_PATTERN } from '@pfs/contracts';
import type { ResourceDefinition } from '@pfs/resource-api';

export const id = { type: 'string', pattern: `^${RESOURCE_ID_PATTERN}$` };

export const tagsListQuery = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 0, default: 0 },
    per_page: { type: 'integer', minimum: 10, maximum: 500, default: 50 },
    since: { type: 'string', description: 'A Service-Modified value of this endpoint.' },
    include_deleted: { type: 'boolean' },
    type: { type: 'string', enum: ['expense', 'income'] },
    search: { type: 'string' },
    ids: { type: 'string', description: 'Comma-separated ids.' },
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
};

export const tagsSchema: ResourceDefinition = {
  name: 'tags',
  title: 'Tag',
  description: 'A tag of entries, typed expense or income, optionally under a primary category.',
  properties: {
    id: { type: 'string', readOnly: true },
    name: { type: 'string', minLength: 1, maxLength: 100 },
    type: { type: 'string', enum: ['expense', 'income'] },
    category: { ...id, description: 'Primary category id.' },
    modified: { type: 'string', readOnly: true, description: 'Opaque; send it back on writes.' },
    deleted: { type: 'boolean', readOnly: true },
    counts: {
      type: 'object',
      readOnly: true,
      properties: {
        entries: { type: 'integer', minimum: 0 },
        unsorted_entries: { type: 'integer', minimum: 0 },
        budgets: { type: 'integer', minimum: 0 },
      },
    },
    extra: { type: 'object', description: 'Any JSON the application stores; returned unchanged (≤16 KiB).' },
  },
  createRequired: ['name', 'type'],
  updateRequired: ['name', 'type'],
};
