import type { DeclaredOperation } from '../../http/api-operation';
import { apiModule } from '../api-module';
import { getMeHandler } from './me.routes';
import { meSchema } from './me.schema';
import { updateMeHandler } from './update-me.routes';

const meHandlers = (deps: Parameters<typeof updateMeHandler>[0]) => ({
  get: getMeHandler(deps),
  replace: updateMeHandler(deps),
});

/** `GET /me`, read by the front door's hot path too (it mounts this operation right after authentication). */
const getMeOperation: DeclaredOperation<ReturnType<typeof meHandlers>> = {
  resource: 'me',
  rel: 'self',
  href: '/me',
  method: 'GET',
  title: 'The authenticated user',
  target: 'object',
  scope: 'user:r',
  handler: 'get',
};

/** GET /me and PUT /me; `summary` is served by the reports module. */
export const meModule = apiModule({
  name: 'me',
  resources: [{ schema: meSchema, rels: ['self', 'update', 'summary'] }],
  operations: [
    getMeOperation,
    {
      resource: 'me',
      rel: 'update',
      href: '/me',
      method: 'PUT',
      title: 'Replace the profile',
      submission: 'update',
      target: 'object',
      scope: 'user:rw',
      handler: 'replace',
    },
  ],
  handlers: meHandlers,
});
