import { apiModule } from '../api-module';
import { notificationsHandlers, notificationsOperations } from './notifications.routes';
import { notificationsSchema } from './notifications.schema';

export const notificationsModule = apiModule({
  name: 'notifications',
  resources: [{ schema: notificationsSchema, rels: ['list', 'self', 'delete', 'dismiss_all'] }],
  operations: notificationsOperations,
  handlers: notificationsHandlers,
});
