import { apiModule } from '../api-module';
import { tagsLabels } from './tags.routes';
import { tagsSchema } from './tags.schema';

export const tagsModule = apiModule({
  name: 'tags',
  // sums is served by the reports module.
  resources: [
    { schema: tagsSchema, rels: ['list', 'create', 'self', 'update', 'patch', 'delete', 'merge', 'sums'] },
  ],
  operations: tagsLabels.operations,
  handlers: tagsLabels.handlers,
});
