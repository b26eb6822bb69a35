import type { ApiModule } from '../api-module';
import { categoriesRoutes } from './categories.routes';
import { categoriesSchema } from './categories.schema';

export const categoriesModule: ApiModule = {
  name: 'categories',
  schemas: [categoriesSchema],
  routes: categoriesRoutes,
};
