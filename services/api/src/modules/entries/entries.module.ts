import { apiModule } from '../api-module';
import { entriesHandlers, entriesOperations } from './entries.routes';
import { entriesSchema } from './entries.schema';

/** `/entries`: list, create (one or a batch), read, replace, patch, delete, manage. */
export const entriesModule = apiModule({
  name: 'entries',
  resources: [
    {
      schema: entriesSchema,
      // sums and timeline are served by the reports module, locations and location by the locations module.
      rels: [
        'list',
        'create',
        'self',
        'update',
        'patch',
        'delete',
        'sums',
        'locations',
        'location',
        'timeline',
        'manage',
      ],
    },
  ],
  operations: entriesOperations,
  handlers: entriesHandlers,
});
