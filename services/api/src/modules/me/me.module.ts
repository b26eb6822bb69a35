import type { DeclaredOperation } from '../../http/api-operation';
import { apiModule } from '../api-module';
import { getMeHandler } from './me.routes';
import { meSchema } from './me.schema';
import { updateMeHandler } from './update-me.routes';
import { deleteMeHandler, deleteMeSubmission } from './delete-me.routes';

const meHandlers = (deps: Parameters<typeof updateMeHandler>[0]) => ({
  get: getMeHandler(deps),
  replace: updateMeHandler(deps),
  remove: deleteMeHandler(deps),
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

/** GET /me, PUT /me and DELETE /me; `summary` is served by the reports module. */
export const meModule = apiModule({
  name: 'me',
  resources: [{ schema: meSchema, rels: ['self', 'update', 'delete', 'summary'] }],
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
    {
      resource: 'me',
      rel: 'delete',
      href: '/me',
      method: 'DELETE',
      title:
        'Delete the account and everything of it for good (body: the current password); the erasure finishes in the background',
      submission: deleteMeSubmission,
      scope: 'user:rw',
      handler: 'remove',
    },
  ],
  handlers: meHandlers,
});
