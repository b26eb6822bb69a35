import type { HyperLink } from '@pfs/resource-api';
import type { ApiModule } from '../api-module';
import { categoriesSchema } from '../categories/categories.schema';
import { tagsSchema } from '../tags/tags.schema';
import { groupSumsRoutes } from './group-sums.routes';

const sumsLink = (resource: 'tags' | 'categories', key: 'tag' | 'category'): HyperLink => ({
  rel: 'sums',
  href: `/${resource}/sums`,
  method: 'GET',
  title: `Expense and income sums per ${key} over a period, in one currency`,
  hrefSchema: {
    type: 'object',
    required: ['from', 'to', 'currency'],
    properties: {
      from: { type: 'string', format: 'date' },
      to: { type: 'string', format: 'date' },
      currency: { type: 'string', pattern: '^[A-Z]{3}$' },
      page: { type: 'integer', minimum: 0 },
      per_page: { type: 'integer', minimum: 10, maximum: 500 },
    },
  },
  target: {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        [key]: { type: 'string' },
        currency: { type: 'object', properties: { code: { type: 'string' } } },
        expenses: { type: 'object', properties: { sum: { type: 'number' }, count: { type: 'integer' } } },
        incomes: { type: 'object', properties: { sum: { type: 'number' }, count: { type: 'integer' } } },
      },
    },
  },
  scope: `${resource}:r entries:r`,
});

tagsSchema.links.push(sumsLink('tags', 'tag'));
categoriesSchema.links.push(sumsLink('categories', 'category'));

/** `/tags/sums` and `/categories/sums`; mounted before the tags and categories routes (`/tags/{id}`). */
export const groupSumsModule: ApiModule = { name: 'group-sums', routes: groupSumsRoutes };
