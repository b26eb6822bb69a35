import type { ApiModule } from '../api-module';
import { budgetsRoutes } from './budgets.routes';
import { budgetsSchema } from './budgets.schema';

export const budgetsModule: ApiModule = { name: 'budgets', schemas: [budgetsSchema], routes: budgetsRoutes };
