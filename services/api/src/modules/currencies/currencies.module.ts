import type { ApiModule } from '../api-module';
import { currenciesRoutes } from './currencies.routes';
import { currenciesSchema } from './currencies.schema';

export const currenciesModule: ApiModule = {
  name: 'currencies',
  schemas: [currenciesSchema],
  routes: currenciesRoutes,
};
