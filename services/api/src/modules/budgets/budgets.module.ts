import { apiModule } from '../api-module';
import { budgetsOperations } from './budgets.operations';
import { budgetsHandlers } from './budgets.routes';
import { budgetsSchema } from './budgets.schema';

export const budgetsModule = apiModule({
  name: 'budgets',
  resources: [
    {
      schema: budgetsSchema,
      rels: ['list', 'create', 'self', 'update', 'patch', 'delete', 'history', 'move', 'reorder'],
    },
  ],
  operations: budgetsOperations,
  handlers: budgetsHandlers,
});
