import type { ApiModule } from '../api-module';
import { pushRoutes } from './push.routes';

export const pushModule: ApiModule = { name: 'push', routes: pushRoutes };
