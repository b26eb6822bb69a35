import { hashToken } from '@pfs/contracts';
import { Request, Response, Router } from 'express';
import { parseForm } from '../web/form';
import { findBasicAuthenticatedClient } from '../oauth/client-credentials';
import { GrantRevocationDependencies, revokeGrants } from '../use-cases/revoke-grants.use-case';
import { readSecretQuery } from '../web/secret-query.middleware';
import type { TokenRecord } from '@pfs/resource-store';
import type { AuthRepositories } from '../auth-repositories';

export interface RevokeRoutesDependencies extends GrantRevocationDependencies {
  repos: Pick<AuthRepositories, 'clients' | 'grants' | 'tokens'>;
}

function oauthError(res: Response, status: number, error: string, description: string) {
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json({ error, error_description: description });
}

function bearerToken(req: Request): string | undefined {
  const match = /^bearer (\S+)$/i.exec(req.get('authorization') ?? '');
  return match?.[1];
}

/** A token named in the request, of either kind, by the parameter names clients send. */
async function findNamedToken(
  deps: RevokeRoutesDependencies,
  req: Request,
  res: Response,
): Promise<TokenRecord | undefined> {
  const input = { ...readSecretQuery(res), ...((req.body ?? {}) as Record<string, unknown>) };
  for (const name of ['token', 'refresh_token', 'access_token']) {
    const value = input[name];
    if (typeof value !== 'string' || !value) continue;
    const hash = hashToken(value);
    const found =
      (await deps.repos.tokens.findActiveByHash(hash, 'refresh')) ??
      (await deps.repos.tokens.findActiveByHash(hash, 'access'));
    if (found) return found;
  }
  return undefined;
}

/**
 * The spec's form: Bearer access token + form refresh_token, both of one grant; the grant ends (every access
 * and refresh token of it). 204 on success; 401 invalid_token for a bad Bearer token; 400 for a missing or
 * foreign refresh token.
 */
async function revokeWithBearer(
  deps: RevokeRoutesDependencies,
  req: Request,
  res: Response,
  accessToken: string,
) {
  const access = await deps.repos.tokens.findActiveByHash(hashToken(accessToken), 'access');
  if (!access?.grantId) {
    res.setHeader('WWW-Authenticate', 'Bearer realm="pfs", error="invalid_token"');
    return oauthError(res, 401, 'invalid_token', 'The access token is invalid or already revoked.');
  }
  const refreshToken = req.body?.refresh_token;
  if (Array.isArray(refreshToken))
    return oauthError(res, 400, 'invalid_request', 'refresh_token is repeated.');
  if (typeof refreshToken !== 'string' || !refreshToken) {
    return oauthError(res, 400, 'invalid_request', 'Missing parameter: refresh_token.');
  }
  const refresh = await deps.repos.tokens.findActiveByHash(hashToken(refreshToken), 'refresh');
  if (!refresh || refresh.grantId !== access.grantId) {
    return oauthError(res, 400, 'invalid_grant', 'The refresh token does not belong to this access token.');
  }
  await revokeGrants(deps, [access.grantId]);
  res.status(204).end();
}

/**
 * The older form (and RFC 7009): client HTTP Basic credentials and the token (`token`, `refresh_token` or
 * `access_token`). The token's grant ends when it belongs to this client. 204 whether or not the token was
 * known (RFC 7009 §2.2: an invalid token is not an error); 401 invalid_client for bad credentials.
 */
async function revokeAsClient(deps: RevokeRoutesDependencies, req: Request, res: Response) {
  const client = await findBasicAuthenticatedClient(deps.repos.clients, req);
  if (!client) {
    res.setHeader('WWW-Authenticate', 'Basic realm="pfs"');
    return oauthError(res, 401, 'invalid_client', 'Client authentication failed.');
  }
  const token = await findNamedToken(deps, req, res);
  if (token?.grantId && token.clientId === client.id) await revokeGrants(deps, [token.grantId]);
  res.status(204).end();
}

/** `POST` and `DELETE /oauth2/revoke`. */
export function revokeRoutes(deps: RevokeRoutesDependencies): Router {
  const router = Router();
  const handle = async (req: Request, res: Response) => {
    const accessToken = bearerToken(req);
    if (accessToken) return revokeWithBearer(deps, req, res, accessToken);
    if (/^basic /i.test(req.get('authorization') ?? '')) return revokeAsClient(deps, req, res);
    res.setHeader('WWW-Authenticate', 'Bearer realm="pfs"');
    return oauthError(
      res,
      401,
      'invalid_token',
      'Send Authorization: Bearer <access token>, or client Basic credentials.',
    );
  };
  router.post('/oauth2/revoke', parseForm, handle);
  router.delete('/oauth2/revoke', parseForm, handle);
  return router;
}
