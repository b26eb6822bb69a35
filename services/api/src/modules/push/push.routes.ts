import { inputError } from '@pfs/errors';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler, DeclaredOperation } from '../../http/api-operation';
import { pushTokenMismatch } from './push-token-shape';
import type { PushBody } from './push.schema';

/**
 * POST /me/push registers a device for push notifications. Scope: user:rw — registering a device
 * changes the user's settings (which devices are told about their data), so a read-only grant may not.
 */
export function pushHandlers(deps: ApiDependencies) {
  const tokens = deps.repos.pushTokens;
  const register: ApiHandler = async (ctx, req, res) => {
    const { type, token: sent } = deps.resourceApi.schemas.parseCreate<PushBody>('push', req.body ?? {});
    const token = sent.trim();
    const mismatch = pushTokenMismatch(type, token, deps.config.WNS_CHANNEL_HOSTS);
    if (mismatch) throw inputError([{ field: 'token', error: mismatch }]);
    await tokens.register(deps.store.read(ctx), ctx.clientId, type, token);
    deps.resourceApi.respond.sendNoContent(res);
  };
  return { register };
}

export type PushHandlers = ReturnType<typeof pushHandlers>;

export const pushOperations: Array<DeclaredOperation<PushHandlers>> = [
  {
    resource: 'push',
    rel: 'register',
    method: 'POST',
    href: '/me/push',
    title: 'Register a device for push notifications',
    submission: 'create',
    scope: 'user:rw',
    handler: 'register',
  },
];
