import type { ApiModule } from '../api-module';
import { entriesRoutes } from './entries.routes';
import { entriesSchema } from './entries.schema';

export const entriesModule: ApiModule = { name: 'entries', schemas: [entriesSchema], routes: entriesRoutes };
