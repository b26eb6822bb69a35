import { CATEGORY_COUNT_KEYS } from '@pfs/resource-store';
import { countsOf, labelListQuery, labelSchema } from '../labels/named-label.schema';

export const categoriesListQuery = labelListQuery({
  defaultPerPage: 200,
  types: ['expense', 'income', 'system'],
});

export const categoriesSchema = labelSchema({
  name: 'categories',
  title: 'Category',
  description: 'A category of entries, typed expense or income.',
  type: { type: 'string', enum: ['expense', 'income'], description: 'system categories are read-only.' },
  counts: countsOf(CATEGORY_COUNT_KEYS),
});
