import { apiModule } from '../api-module';
import { importsHandlers, importsOperations } from './imports.routes';
import { importsSchema } from './imports.schema';

export const importsModule = apiModule({
  name: 'imports',
  resources: [{ schema: importsSchema, rels: ['list', 'create', 'self'] }],
  operations: importsOperations,
  handlers: importsHandlers,
});
