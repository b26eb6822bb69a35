import { apiModule } from '../api-module';
import { tagsHandlers, tagsOperations } from './tags.routes';
import { tagsSchema } from './tags.schema';

export const tagsModule = apiModule({
  name: 'tags',
  // sums is served by the reports module.
  resources: [
    { schema: tagsSchema, rels: ['list', 'create', 'self', 'update', 'patch', 'delete', 'merge', 'sums'] },
  ],
  operations: tagsOperations,
  handlers: tagsHandlers,
});
