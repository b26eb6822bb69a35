import type { JsonSchema } from '@pfs/resource-api';
import { id } from './entry-body.schema';
import { syncedListParams } from '../../http/list-query';

const idList = (what: string) => ({
  type: 'string',
  description: `Comma-separated ${what} ids; prefix the parameter with ! to exclude them.`,
});

export const entryListQuery: JsonSchema = {
  type: 'object',
  properties: {
    ...syncedListParams({ describeSince: false }),
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
export const { since: _since, ...computedListQuery } = entryListQuery.properties as Record<
  string,
  JsonSchema
>;
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
