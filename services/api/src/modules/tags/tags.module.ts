import type { ApiModule } from '../api-module';
import { tagsRoutes } from './tags.routes';
import { tagsSchema } from './tags.schema';

export const tagsModule: ApiModule = { name: 'tags', schemas: [tagsSchema], routes: tagsRoutes };
