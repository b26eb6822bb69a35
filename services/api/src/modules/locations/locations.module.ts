import { apiModule } from '../api-module';
import { locationsHandlers, locationsOperations } from './locations.routes';

/** `/entries/locations` and `/entries/locations/{id}`: the places of the user's entries (on the entries resource). */
export const locationsModule = apiModule({
  name: 'locations',
  operations: locationsOperations,
  handlers: locationsHandlers,
});
