import type OAuth2Server from '@node-oauth/oauth2-server';
import { OAuthError } from '@node-oauth/oauth2-server';
import { AppError } from '@pfs/errors';
import { asUnavailable, isStoreUnavailable, requestLogger, setRequestIdentity } from '@pfs/http';
import type { Logger } from '@pfs/logger';
import { Request, RequestHandler, Response, Router } from 'express';
import { parseTokenRequestForm } from '../web/token-form';
import { decodeFormEncodedBasic } from '../oauth/client-credentials';
import {
  newOAuthResponse,
  sendNoStoreJson,
  sendOAuthResponse,
  toOAuthRequest,
} from '../oauth/express-adapter';
import { TokenEndpointError } from '../oauth/token-endpoint-error';
import { checkTokenRequest, TokenRequestCheckDependencies } from '../oauth/token-request-checks';
import type { RateLimiter } from '../security/rate-limiter';
import { countTokenRequest } from './token-metrics';
import type { OAuthModelFor } from '../oauth/oauth-server';
import type { TokenRequestFacts } from '../oauth/oauth-model';
import { requestTokenHash } from '../oauth/request-token-hashes';

export interface TokenRoutesDependencies {
  oauth: OAuth2Server;
  /** The library's model for one request, with what our checks read (no second read of the client or code). */
  modelFor: OAuthModelFor;
  logger: Logger;
  checks: TokenRequestCheckDependencies;
  limiter: RateLimiter;
  accessTokenTtlSeconds: number;
}

type OAuthResponse = ReturnType<typeof newOAuthResponse>;

/** The spec's shape of a success: `token_type` bearer, `scope` only when it differs from the request. */
function shapeSuccess(req: Request, response: OAuthResponse, accessTokenTtlSeconds: number) {
  const body = response.body as Record<string, unknown>;
  body.token_type = 'bearer';
  // The library derives expires_in from the expiry instant and rounds a few milliseconds down.
  if (body.expires_in !== undefined) body.expires_in = accessTokenTtlSeconds;
  const requested = typeof req.body?.scope === 'string' ? req.body.scope : undefined;
  if (requested === undefined || requested === body.scope) delete body.scope;
}

/**
 * Where the library's answer differs from the spec we adapt it: a redirect_uri missing or different from
 * the authorize step's is invalid_grant (RFC 6749 §5.2), not invalid_request; invalid_client is always
 * 401 with a challenge (the library sends 400 when the credentials came in the body).
 */
function adaptError(response: OAuthResponse) {
  const body = response.body as { error?: string; error_description?: string };
  if (body.error === 'invalid_request' && body.error_description?.includes('`redirect_uri`')) {
    body.error = 'invalid_grant';
    body.error_description = 'The redirect_uri does not match the one sent at the authorization step.';
    response.status = 400;
  }
  if (body.error === 'invalid_client') {
    response.status = 401;
    response.set('WWW-Authenticate', 'Basic realm="pfs"');
  }
}

/**
 * The spec's Errors table: an invalid token request is 400 with an OAuth error body, so a form the parser
 * cannot read (too large, unknown charset) is invalid_request too, not the generic 413/415 body.
 */
const parseTokenForm: RequestHandler = (req, res, next) =>
  parseTokenRequestForm(req, res, (error?: unknown) => {
    if (!error) return next();
    const field = error instanceof AppError ? error.fields?.[0] : undefined;
    sendNoStoreJson(res, 400, {
      error: 'invalid_request',
      error_description: field
        ? `The parameter ${field.field} ${field.error}.`
        : 'The body must be a UTF-8 form (application/x-www-form-urlencoded) of at most 16 kB.',
    });
  });

/** `POST /oauth2/token`: our checks (throttling, repeated parameters, refresh scope, two-factor), then the library. */
export function tokenRoutes(deps: TokenRoutesDependencies): Router {
  const router = Router();
  router.post(
    '/oauth2/token',
    parseTokenForm,
    decodeFormEncodedBasic(deps.checks.repos.tokenRequests),
    async (req: Request, res: Response) => {
      const response = newOAuthResponse();
      let clientId: string | undefined;
      try {
        const facts: TokenRequestFacts = { hashOf: (token) => requestTokenHash(req, token) };
        const checked = await checkTokenRequest(deps.checks, req, facts);
        clientId = checked.clientId;
        if (clientId) setRequestIdentity(res, { clientId });
        // OAuth 2.1 §4.3.1: a public client refreshes without authenticating; rotation and reuse detection
        // protect its refresh token. Confidential clients still authenticate (findClient refuses them otherwise).
        // The library merges these options over the server's (lib/server.js `token`), the model included (one
        // per request: what our checks read); its typing leaves `model` out of TokenOptions, hence the wider type.
        const options: Partial<OAuth2Server.ServerOptions> = {
          model: deps.modelFor(facts),
          ...(checked.secretlessPublicClient && {
            requireClientAuthentication: { authorization_code: true, refresh_token: false },
          }),
        };
        const token = await deps.oauth.token(toOAuthRequest(req), response, options);
        setRequestIdentity(res, { userId: String(token.user.id), clientId: token.client.id });
        shapeSuccess(req, response, deps.accessTokenTtlSeconds);
      } catch (error) {
        if (error instanceof TokenEndpointError) {
          response.status = error.status;
          response.body = { error: error.error, error_description: error.description };
          for (const [name, value] of Object.entries(error.headers)) response.set(name, value);
        } else if (error instanceof OAuthError) {
          // The library throws its request-shape errors (method, content type) before writing the response.
          if (!(response.body as { error?: string } | undefined)?.error) {
            response.status = error.code;
            response.body = { error: error.name, error_description: error.message };
          }
          adaptError(response);
          if (error.name === 'server_error') {
            // A store that went away while the library ran is an outage, not a fault: 503 with Retry-After.
            // The library keeps the cause in `inner` only when it passes its `instanceof Error` check; an error
            // from another realm (Node's own socket errors under a VM context, as in Jest) lands in `message`.
            const { inner, message } = error as { inner?: unknown; message?: unknown };
            const cause = inner ?? (typeof message === 'object' ? message : undefined);
            if (isStoreUnavailable(cause)) throw asUnavailable(cause);
            // The library wraps our failures (a database error…) and would show their message: log it, say little.
            requestLogger(deps.logger, req).error(
              { err: (error as { inner?: unknown }).inner ?? error, requestId: req.id },
              'token request failed',
            );
            response.status = 500;
            response.body = {
              error: 'server_error',
              error_description: 'The server could not complete the request.',
            };
          }
          const body = response.body as { error?: string };
          if (clientId && (body.error === 'invalid_grant' || body.error === 'invalid_client')) {
            await deps.limiter.hit(`token-client:${clientId}`, deps.checks.maxFailuresPerClient, {
              refuses: false,
            });
          }
        } else {
          throw error;
        }
      }
      countTokenRequest(req, response.body as { error?: string });
      sendOAuthResponse(res, response);
    },
  );
  return router;
}
