import type { ResourceSchema } from '@pfs/resource-api';
import { entryProperties, entryRequired, id } from './entry-body.schema';
import { computedListQuery, entryListQuery, sumsItem, sumsQuery } from './entry-queries.schema';

/** Id lists of POST /entries/manage (readManageRequest's bound). */
const manageIds = { type: 'array', maxItems: 500, items: id };

export const entriesSchema: ResourceSchema = {
  name: 'entries',
  title: 'Entry',
  description:
    'An expense (amount < 0) or income (amount > 0) in an account. Amounts are exact decimals rounded half-even to the currency precision. An entry with `transaction` is a transfer: the server keeps its companion entry in the other account in step.',
  properties: entryProperties,
  createRequired: [...entryRequired],
  updateRequired: [...entryRequired],
  links: [
    {
      rel: 'list',
      href: '/entries',
      method: 'GET',
      title: 'List entries',
      hrefSchema: entryListQuery,
      target: 'list',
      scope: 'entries:r',
    },
    {
      rel: 'create',
      href: '/entries',
      method: 'POST',
      title: 'Create an entry, or many (a JSON array; all or nothing)',
      submission: 'create',
      // One entry answers the entry; a batch (an array) answers the created entries in order.
      target: 'object-or-list',
      scope: 'entries:rw',
    },
    {
      rel: 'self',
      href: '/entries/{id}',
      method: 'GET',
      title: 'Get an entry',
      target: 'object',
      scope: 'entries:r',
    },
    {
      rel: 'update',
      href: '/entries/{id}',
      method: 'PUT',
      title: 'Replace an entry',
      submission: 'update',
      target: 'object',
      scope: 'entries:rw',
    },
    {
      rel: 'patch',
      href: '/entries/{id}',
      method: 'PATCH',
      title: 'Change some fields (JSON merge patch)',
      submission: 'patch',
      target: 'object',
      scope: 'entries:rw',
    },
    {
      rel: 'delete',
      href: '/entries/{id}',
      method: 'DELETE',
      title: 'Delete an entry (and its transfer companion)',
      scope: 'entries:rw',
    },
    {
      rel: 'sums',
      href: '/entries/sums',
      method: 'GET',
      title: 'Expense and income sums per day, week or month in one currency',
      hrefSchema: {
        type: 'object',
        required: ['from', 'to', 'currency'],
        properties: {
          ...sumsQuery,
          currency: { type: 'string', pattern: '^[A-Z]{3}$' },
          range: { type: 'string', enum: ['day', 'week', 'month'], default: 'day' },
        },
      },
      target: { type: 'array', items: sumsItem({ day: { type: 'string', format: 'date' } }) },
      scope: 'entries:r',
    },
    {
      rel: 'locations',
      href: '/entries/locations',
      method: 'GET',
      title: 'The places of the entries (their `location`), with entry counts; nearest first around a point',
      hrefSchema: {
        type: 'object',
        properties: {
          ...(entryListQuery.properties as object),
          latitude: { type: 'number', minimum: -90, maximum: 90 },
          longitude: { type: 'number', minimum: -180, maximum: 180 },
          radius: { type: 'number', minimum: 1, description: 'Metres around latitude/longitude.' },
        },
      },
      target: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            id: { type: 'string', description: 'The location id, or latitude,longitude when it has none.' },
            venue_id: { type: 'string' },
            latitude: { type: 'number' },
            longitude: { type: 'number' },
            counts: { type: 'object', properties: { entries: { type: 'integer' } } },
            distance: { type: 'integer', description: 'Metres from latitude/longitude, when given.' },
            modified: { type: 'string' },
            deleted: { type: 'boolean' },
          },
        },
      },
      scope: 'locations:r',
    },
    {
      rel: 'location',
      href: '/entries/locations/{id}',
      method: 'GET',
      title: 'One place of the entries',
      target: { type: 'object' },
      scope: 'locations:r',
    },
    {
      rel: 'timeline',
      href: '/entries/timeline',
      method: 'GET',
      title: 'Entries grouped by day, category or location, with exact sums in one currency',
      hrefSchema: {
        type: 'object',
        required: ['from', 'to'],
        properties: {
          ...computedListQuery,
          type: {
            type: 'string',
            enum: ['expense', 'income'],
            description:
              'Default: both. `sum` is the expenses as a magnitude, the incomes, or both as the net.',
          },
          group: { type: 'string', enum: ['day', 'category', 'location'] },
          currency: { type: 'string', description: 'Default: the main currency.' },
          expand: { type: 'boolean', description: 'Also the planned occurrences of repeating entries.' },
        },
      },
      target: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            day: { type: 'string', format: 'date' },
            category: { type: 'string' },
            location: { type: 'object' },
            sum: { type: 'number' },
            count: { type: 'integer' },
            currency: { type: 'object', properties: { code: { type: 'string' } } },
            entries: { type: 'array', items: { type: 'object' } },
          },
        },
      },
      scope: 'entries:r',
    },
    {
      rel: 'manage',
      href: '/entries/manage',
      method: 'POST',
      title: 'Set or add/remove tags, account or category on every entry matching `with`',
      submission: {
        type: 'object',
        required: ['with'],
        properties: {
          with: {
            type: 'object',
            properties: {
              tags: manageIds,
              accounts: manageIds,
              categories: manageIds,
              description: { type: 'string' },
            },
          },
          set: { type: 'object', properties: { tags: manageIds, account: id, category: id } },
          add: { type: 'object', properties: { tags: manageIds } },
          remove: { type: 'object', properties: { tags: manageIds } },
        },
      },
      scope: 'entries:rw',
    },
  ],
};
