import { apiModule } from '../api-module';
import { categoriesLabels } from './categories.routes';
import { categoriesSchema } from './categories.schema';

export const categoriesModule = apiModule({
  name: 'categories',
  // sums is served by the reports module.
  resources: [
    {
      schema: categoriesSchema,
      rels: ['list', 'create', 'self', 'update', 'patch', 'delete', 'merge', 'sums'],
    },
  ],
  operations: categoriesLabels.operations,
  handlers: categoriesLabels.handlers,
});
