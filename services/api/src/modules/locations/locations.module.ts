import type { ApiModule } from '../api-module';
import { locationsRoutes } from './locations.routes';

/**
 * `/entries/locations` and `/entries/locations/{id}`: the places of the user's entries. Mounted before the
 * entries module, whose `/entries/{id}` would otherwise take `/entries/locations`.
 */
export const locationsModule: ApiModule = { name: 'locations', routes: locationsRoutes };
