import type { ApiModule } from '../api-module';
import { accountsRoutes } from './accounts.routes';
import { accountsSchema } from './accounts.schema';

export const accountsModule: ApiModule = {
  name: 'accounts',
  schemas: [accountsSchema],
  routes: accountsRoutes,
};
