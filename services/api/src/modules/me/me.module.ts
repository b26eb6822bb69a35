import type { ApiModule } from '../api-module';
import { meRoutes } from './me.routes';
import { meSchema } from './me.schema';

export const meModule: ApiModule = { name: 'me', schemas: [meSchema], routes: meRoutes };
