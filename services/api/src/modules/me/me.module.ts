import type { ApiModule } from '../api-module';
import { meRoutes } from './me.routes';
import { meSchema } from './me.schema';
import { updateMeRoutes } from './update-me.routes';

// The link of PUT /me, added after the schema's own links (the reports module adds `summary` after it).
meSchema.links.push({
  rel: 'update',
  href: '/me',
  method: 'PUT',
  title: 'Replace the profile',
  submission: 'update',
  target: 'object',
  scope: 'user:rw',
});

/** GET /me and PUT /me. */
export const meModule: ApiModule = {
  name: 'me',
  schemas: [meSchema],
  routes: (deps) => meRoutes(deps).use(updateMeRoutes(deps)),
};
