import type { ResourceDefinition } from '@pfs/resource-api';

const countsProperties = Object.fromEntries(
  [
    'entries',
    'income_entries',
    'expense_entries',
    'tags_used_with_category',
    'income_tags_used_with_category',
    'expense_tags_used_with_category',
    'tags',
    'income_tags',
    'expense_tags',
    'budgets',
  ].map((key) => [key, { type: 'integer', minimum: 0 }]),
);

export const categoriesListQuery = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 0, default: 0 },
    per_page: { type: 'integer', minimum: 10, maximum: 500, default: 200 },
    since: { type: 'string', description: 'A Service-Modified value of this endpoint.' },
    include_deleted: { type: 'boolean' },
    type: { type: 'string', enum: ['expense', 'income', 'system'] },
    search: { type: 'string' },
    ids: { type: 'string', description: 'Comma-separated ids.' },
  },
};

export const categoriesSchema: ResourceDefinition = {
  name: 'categories',
  title: 'Category',
  description: 'A category of entries, typed expense or income.',
  properties: {
    id: { type: 'string', readOnly: true },
    name: { type: 'string', minLength: 1, maxLength: 100 },
    type: { type: 'string', enum: ['expense', 'income'], description: 'system categories are read-only.' },
    modified: { type: 'string', readOnly: true, description: 'Opaque; send it back on writes.' },
    deleted: { type: 'boolean', readOnly: true },
    counts: { type: 'object', readOnly: true, properties: countsProperties },
    extra: { type: 'object', description: 'Any JSON the application stores; returned unchanged (≤16 KiB).' },
  },
  createRequired: ['name', 'type'],
  updateRequired: ['name', 'type'],
};
