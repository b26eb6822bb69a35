import type { ApiModule } from '../api-module';
import { pushRoutes } from './push.routes';
import { pushSchema } from './push.schema';

export const pushModule: ApiModule = { name: 'push', schemas: [pushSchema], routes: pushRoutes };
