import { apiModule } from '../api-module';
import { pushHandlers, pushOperations } from './push.routes';
import { pushSchema } from './push.schema';

export const pushModule = apiModule({
  name: 'push',
  resources: [{ schema: pushSchema, rels: ['register'] }],
  operations: pushOperations,
  handlers: pushHandlers,
});
