import { RESOURCE_ID_PATTERN } from '@pfs/contracts';
import type { JsonSchema, ResourceSchema } from '@pfs/resource-api';

const id = { type: 'string', pattern: `^${RESOURCE_ID_PATTERN}$` };
/** Id lists of POST /entries/manage (readManageRequest's bound). */
const manageIds = { type: 'array', maxItems: 500, items: id };
const amount = { type: 'number', exclusiveMinimum: -1e15, exclusiveMaximum: 1e15 };
const currency = {
  type: 'object',
  required: ['code'],
  properties: {
    code: { type: 'string', pattern: '^[A-Z]{3}$' },
    rate: {
      type: 'number',
      exclusiveMinimum: 0,
      description: 'Units of the account currency per unit of this one; default: the ECB rate of the date.',
    },
    main_rate: {
      type: 'number',
      readOnly: true,
      description: 'Units of the main currency per unit of this one.',
    },
    fixed: { type: 'boolean' },
  },
};
const idList = (what: string) => ({
  type: 'string',
  description: `Comma-separated ${what} ids; prefix the parameter with ! to exclude them.`,
});

const intList = { type: ['string', 'integer'] };
/** `entry.repeat` (docs/ledger.md "Repeating entries"); repeat-rule.ts checks it and names bad fields. */
const repeatSchema = {
  type: 'object',
  description:
    'Makes the entry the first of a repeating series (RFC 5545 RRULE semantics); on reads, the series of an occurrence.',
  properties: {
    id: { type: 'string', readOnly: true },
    start: { type: 'string', format: 'date' },
    end: { type: 'string', format: 'date' },
    count: { type: 'integer', minimum: 1 },
    frequency: { type: 'string', enum: ['daily', 'weekly', 'monthly', 'yearly'] },
    interval: { type: 'integer', minimum: 1, maximum: 127 },
    byday: { type: 'string', description: 'Weekdays, optionally with an ordinal: MO,TU or 1MO or -1FR.' },
    bymonthday: { ...intList, description: 'Days of the month, 1–31 or -31–-1, comma-separated.' },
    bysetpos: {
      ...intList,
      description: 'Positions in the set byday/bymonthday give, e.g. -1 for the last.',
    },
    iteration: { type: 'integer', readOnly: true },
    template: { type: 'boolean', readOnly: true },
    type: { type: 'string', enum: ['automatic', 'confirm', 'confirmed'] },
    status: { type: 'string', enum: ['ok', 'missing_entries'], readOnly: true },
  },
};

export const entryListQuery: JsonSchema = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 0, default: 0 },
    per_page: { type: 'integer', minimum: 10, maximum: 500, default: 200 },
    since: { type: 'string' },
    include_deleted: { type: 'boolean' },
    from: { type: 'string', format: 'date' },
    to: { type: 'string', format: 'date' },
    type: { type: 'string', enum: ['expense', 'income', 'transaction'] },
    accounts: idList('account'),
    '!accounts': idList('account'),
    categories: idList('category'),
    '!categories': idList('category'),
    tags: idList('tag'),
    '!tags': idList('tag'),
    locations: idList('location'),
    '!locations': idList('location'),
    search: { type: 'string', maxLength: 255 },
    ids: { type: 'string' },
    repeat: { ...id, description: 'Only the occurrences of this repeating series.' },
    expand: {
      type: 'boolean',
      description:
        'Also the planned occurrences of repeating entries (read-only, `planned: true`); needs from and to, refuses since.',
    },
  },
};

/**
 * The list query of the computed lists (sums, timeline): paged by page/per_page with Link and
 * X-Total-Count, but derived rows have no `since` sync (revalidate them with ETag / If-None-Match).
 */
const { since: _since, ...computedListQuery } = entryListQuery.properties as Record<string, JsonSchema>;
/** The sums read live stored entries only: no include_deleted, repeat or expand. */
export const {
  include_deleted: _deleted,
  repeat: _repeat,
  expand: _expand,
  ...sumsQuery
} = computedListQuery;

const sideSum = {
  type: 'object',
  required: ['sum', 'count'],
  properties: {
    sum: { type: 'number', minimum: 0, description: 'A magnitude: expenses are not negative here.' },
    count: { type: 'integer', minimum: 0 },
  },
};

/** One row of `/entries/sums`, `/tags/sums`, `/categories/sums` (docs/money.md "Signs"). */
export function sumsItem(subject: Record<string, JsonSchema>, required = Object.keys(subject)): JsonSchema {
  return {
    type: 'object',
    required: [...required, 'expenses', 'incomes', 'modified'],
    properties: {
      ...subject,
      expenses: sideSum,
      incomes: sideSum,
      modified: { type: 'string', description: 'The latest modified of the entries the row adds up.' },
    },
  };
}

export const entriesSchema: ResourceSchema = {
  name: 'entries',
  title: 'Entry',
  description:
    'An expense (amount < 0) or income (amount > 0) in an account. Amounts are exact decimals rounded half-even to the currency precision. An entry with `transaction` is a transfer: the server keeps its companion entry in the other account in step.',
  properties: {
    id: { type: 'string', readOnly: true },
    amount,
    currency,
    date: { type: 'string', format: 'date' },
    desc: { type: 'string', maxLength: 3072 },
    account: id,
    category: id,
    tags: { type: 'array', maxItems: 100, items: id },
    location: {
      type: 'object',
      required: ['latitude', 'longitude'],
      properties: {
        id,
        venue_id: { type: 'string', maxLength: 255 },
        latitude: { type: 'number', minimum: -90, maximum: 90 },
        longitude: { type: 'number', minimum: -180, maximum: 180 },
      },
    },
    reminders: {
      type: 'array',
      maxItems: 5,
      items: {
        type: 'object',
        required: ['period', 'number', 'at'],
        properties: {
          period: { type: 'string', enum: ['day', 'week', 'month', 'year'] },
          number: { type: 'integer', minimum: 0, maximum: 255 },
          at: { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$' },
        },
      },
    },
    completed: { type: 'boolean' },
    images: {
      type: 'array',
      maxItems: 4,
      description: 'Attached images (ids of /images); the rest of each item is read-only.',
      items: {
        type: 'object',
        required: ['id'],
        properties: {
          id,
          path: {
            type: 'string',
            readOnly: true,
            description: 'Append thumb.jpg, full.jpg or document.pdf.',
          },
          filename: { type: 'string', readOnly: true },
          type: { type: 'string', enum: ['image', 'pdf'], readOnly: true },
          status: { type: 'string', enum: ['new', 'uploaded', 'error', 'deleting'], readOnly: true },
        },
      },
    },
    repeat: repeatSchema,
    transaction: {
      type: 'object',
      required: ['account'],
      description:
        'Makes the entry a transfer to or from `account`; amount and currency default to the opposite of the entry.',
      properties: { id: { ...id, readOnly: true }, account: id, amount, currency },
    },
    created: { type: 'string', format: 'date-time', readOnly: true },
    modified: { type: 'string', readOnly: true },
    deleted: { type: 'boolean', readOnly: true },
    extra: { type: 'object' },
  },
  createRequired: ['amount', 'currency', 'date', 'account', 'category'],
  updateRequired: ['amount', 'currency', 'date', 'account', 'category'],
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
