import { RESOURCE_ID_PATTERN } from '@pfs/contracts';
import type { ResourceSchema } from '@pfs/resource-api';

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

const listQuery = {
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

export const categoriesSchema: ResourceSchema = {
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
  links: [
    {
      rel: 'list',
      href: '/categories',
      method: 'GET',
      title: 'List categories',
      hrefSchema: listQuery,
      target: 'list',
      scope: 'categories:r',
    },
    {
      rel: 'create',
      href: '/categories',
      method: 'POST',
      title: 'Create a category',
      submission: 'create',
      target: 'object',
      scope: 'categories:rw',
    },
    {
      rel: 'self',
      href: '/categories/{id}',
      method: 'GET',
      title: 'Get a category',
      target: 'object',
      scope: 'categories:r',
    },
    {
      rel: 'update',
      href: '/categories/{id}',
      method: 'PUT',
      title: 'Replace a category',
      submission: 'update',
      target: 'object',
      scope: 'categories:rw',
    },
    {
      rel: 'patch',
      href: '/categories/{id}',
      method: 'PATCH',
      title: 'Change some fields (JSON merge patch)',
      submission: 'patch',
      target: 'object',
      scope: 'categories:rw',
    },
    {
      rel: 'delete',
      href: '/categories/{id}',
      method: 'DELETE',
      title: 'Delete a category',
      scope: 'categories:rw',
    },
    {
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
    },
  ],
};
