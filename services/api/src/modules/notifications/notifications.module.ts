import type { ApiModule } from '../api-module';
import { notificationsRoutes } from './notifications.routes';
import { notificationsSchema } from './notifications.schema';

export const notificationsModule: ApiModule = {
  name: 'notifications',
  schemas: [notificationsSchema],
  routes: notificationsRoutes,
};
