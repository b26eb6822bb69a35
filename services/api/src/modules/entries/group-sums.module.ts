import type { HyperLink } from '@pfs/resource-api';
import type { ApiModule } from '../api-module';
import { categoriesSchema } from '../categories/categories.schema';
import { tagsSchema } from '../tags/tags.schema';
import { sumsItem, sumsQuery } from './entries.schema';
import { groupSumsRoutes } from './group-sums.routes';

const sumsLink = (resource: 'tags' | 'categories', key: 'tag' | 'category'): HyperLink => ({
  rel: 'sums',
  href: `/${resource}/sums`,
  method: 'GET',
  title: `Expense and income sums per ${key} over a period, in one currency`,
  hrefSchema: {
    type: 'object',
    required: ['from', 'to', 'currency'],
    properties: { ...sumsQuery, currency: { type: 'string', pattern: '^[A-Z]{3}$' } },
  },
  target: {
    type: 'array',
    // Entries without a category add up in one row without `category` (never `category: null`).
    items: sumsItem({ [key]: { type: 'string' } }, key === 'tag' ? ['tag'] : []),
  },
  scope: `${resource}:r entries:r`,
});

tagsSchema.links.push(sumsLink('tags', 'tag'));
categoriesSchema.links.push(sumsLink('categories', 'category'));

/** `/tags/sums` and `/categories/sums`; mounted before the tags and categories routes (`/tags/{id}`). */
export const groupSumsModule: ApiModule = { name: 'group-sums', routes: groupSumsRoutes };
