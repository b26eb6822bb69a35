import { apiModule } from '../api-module';
import { currenciesHandlers, currenciesOperations } from './currencies.routes';
import { currenciesSchema } from './currencies.schema';

export const currenciesModule = apiModule({
  name: 'currencies',
  resources: [{ schema: currenciesSchema, rels: ['list', 'self'] }],
  operations: currenciesOperations,
  handlers: currenciesHandlers,
});
