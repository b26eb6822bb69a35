import { apiModule } from '../api-module';
import { webhooksOperations } from './webhooks.operations';
import { webhooksHandlers } from './webhooks.routes';
import { webhookDeliveriesSchema, webhooksSchema } from './webhooks.schema';

export const webhooksModule = apiModule({
  name: 'webhooks',
  resources: [
    { schema: webhooksSchema, rels: ['list', 'create', 'self', 'update', 'delete'] },
    { schema: webhookDeliveriesSchema, rels: ['list', 'self', 'redeliver'] },
  ],
  operations: webhooksOperations,
  handlers: webhooksHandlers,
});
