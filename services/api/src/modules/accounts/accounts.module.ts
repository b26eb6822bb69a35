import { apiModule } from '../api-module';
import { accountsHandlers, accountsOperations } from './accounts.routes';
import { accountsSchema } from './accounts.schema';

export const accountsModule = apiModule({
  name: 'accounts',
  resources: [
    {
      schema: accountsSchema,
      rels: ['list', 'create', 'self', 'update', 'patch', 'delete', 'move', 'reorder', 'merge'],
    },
  ],
  operations: accountsOperations,
  handlers: accountsHandlers,
});
