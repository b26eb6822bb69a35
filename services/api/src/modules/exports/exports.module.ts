import { apiModule } from '../api-module';
import { exportsHandlers, exportsOperations } from './exports.routes';
import { exportsSchema } from './exports.schema';

export const exportsModule = apiModule({
  name: 'exports',
  resources: [{ schema: exportsSchema, rels: ['list', 'create', 'self', 'update'] }],
  operations: exportsOperations,
  handlers: exportsHandlers,
});
