import { notFound } from '@pfs/errors';
import { requestLogger } from '@pfs/http';
import type { Request } from 'express';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler } from '../../http/api-operation';
import { presentUser } from './me.presenter';
import { decodeHeldRepresentation } from './user-profile-cache';

/** The requests the authentication step reads the cached `/me` for (a miss just falls back to Postgres). */
export const isGetMe = (req: Request) =>
  (req.method === 'GET' || req.method === 'HEAD') && req.path === '/me';

/**
 * `GET /me` (user:r): served from the cached representation the authentication step read beside the token
 * record (one Redis round trip for the whole request); on a miss, read from Postgres, sent, and cached
 * unless the user was written meanwhile (UserProfileCache).
 */
export function getMeHandler(
  deps: Pick<ApiDependencies, 'users' | 'resourceApi' | 'profileCache' | 'logger'>,
): ApiHandler {
  const respond = deps.resourceApi.respond;
  return async (ctx, req, res) => {
    const { userId, rateLimit } = ctx;
    const lookup = rateLimit.profile;
    const cached = lookup && 'cached' in lookup ? decodeHeldRepresentation(lookup.cached) : undefined;
    if (cached) {
      respond.sendPrepared(req, res, 'me', cached);
      return;
    }
    const user = await deps.users.findById(userId);
    if (!user) throw notFound('User');
    const prepared = respond.prepare(presentUser(user), user.modifiedAt);
    if (lookup && 'generation' in lookup) {
      // A failed fill only costs the next request a Postgres read.
      await deps.profileCache
        .fill(userId, lookup, prepared)
        .catch((error) =>
          requestLogger(deps.logger, req).warn({ err: error }, 'could not cache the user profile'),
        );
    }
    respond.sendPrepared(req, res, 'me', prepared);
  };
}
