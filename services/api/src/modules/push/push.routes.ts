import { inputError } from '@pfs/errors';
import { PUSH_TOKEN_TYPES } from '@pfs/resource-store';
import { z } from 'zod';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler, DeclaredOperation } from '../../http/api-operation';
import { pushTokenMismatch } from './push-token-shape';

const body = z.object({
  type: z.enum(PUSH_TOKEN_TYPES, {
    errorMap: () => ({ message: `must be one of ${PUSH_TOKEN_TYPES.join(', ')}` }),
  }),
  token: z
    .string({ required_error: 'is required', invalid_type_error: 'must be a string' })
    .trim()
    .min(1, 'must not be empty')
    .max(4096, 'must be at most 4096 characters'),
});

/**
 * POST /me/push registers a device for push notifications. Scope: user:rw — registering a device
 * changes the user's settings (which devices are told about their data), so a read-only grant may not.
 */
export function pushHandlers(deps: ApiDependencies) {
  const tokens = deps.repos.pushTokens;
  const register: ApiHandler = async (ctx, req, res) => {
    const parsed = body.safeParse(req.body ?? {});
    if (!parsed.success) {
      throw inputError(
        parsed.error.issues.map((issue) => ({ field: issue.path.join('.') || 'body', error: issue.message })),
      );
    }
    const mismatch = pushTokenMismatch(parsed.data.type, parsed.data.token, deps.config.WNS_CHANNEL_HOSTS);
    if (mismatch) throw inputError([{ field: 'token', error: mismatch }]);
    await tokens.register(deps.store.read(ctx), ctx.clientId, parsed.data.type, parsed.data.token);
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
