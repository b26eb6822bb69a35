import type { ApiModule } from '../api-module';
import { exportsRoutes } from './exports.routes';
import { exportsSchema } from './exports.schema';

export const exportsModule: ApiModule = { name: 'exports', schemas: [exportsSchema], routes: exportsRoutes };
