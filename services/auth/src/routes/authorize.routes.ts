import { requestLogger } from '@pfs/http';
import type OAuth2Server from '@node-oauth/oauth2-server';
import { parseScope } from '@pfs/contracts';
import type { Logger } from '@pfs/logger';
import { Request, Response, Router } from 'express';
import { AuthorizationCheck, buildRedirect, checkAuthorizationRequest } from '../oauth/authorization-request';
import { newOAuthResponse, toOAuthRequest } from '../oauth/express-adapter';
import type { AuthorizingUser } from '../oauth/library-records';
import type { RateLimiter } from '../security/rate-limiter';
import type { TokenIntrospectionStore } from '../token-introspection.store';
import { issueImplicitToken } from '../use-cases/issue-implicit-token.use-case';
import { readCookie, SESSION_COOKIE } from '../web/cookies';
import { issueCsrfToken } from '../web/csrf';
import { pageForm } from '../web/form';
import { consentPage, errorPage, verifyFirstPage } from '../web/pages';
import type { SessionStore } from '../web/session.store';
import { clientNetwork } from '../security/client-network';
import type { AuthRepositories } from '../auth-repositories';
import type { User } from '@pfs/resource-store';

export interface AuthorizeRoutesDependencies {
  repos: Pick<AuthRepositories, 'clients' | 'grants' | 'tokens' | 'users' | 'credentials'>;
  oauth: OAuth2Server;
  introspection: TokenIntrospectionStore;
  sessions: SessionStore;
  limiter: RateLimiter;
  logger: Logger;
  secureCookies: boolean;
  accessTokenTtlSeconds: number;
  maxRequestsPerIp: number;
  /** The resource indicators (RFC 8707) this server issues tokens for. */
  resources: readonly string[];
}

type ValidCheck = Extract<AuthorizationCheck, { outcome: 'valid' }>;

function answerCheckFailure(res: Response, check: Exclude<AuthorizationCheck, { outcome: 'valid' }>) {
  if (check.outcome === 'error-page') {
    res.status(400).type('html').send(errorPage('Authorization failed', check.message));
    return;
  }
  const params = { error: check.error, error_description: check.description, state: check.state };
  res.redirect(302, buildRedirect(check.redirectUri, params, { inFragment: check.inFragment }));
}

function redirectError(check: ValidCheck, error: string, description: string): string {
  const params = { error, error_description: description, state: check.params.state };
  return buildRedirect(check.redirectUri, params, { inFragment: check.params.response_type === 'token' });
}

/**
 * CSP form-action also governs where a form submission may be redirected (Chromium enforces it), so the
 * consent page must allow the client's redirect origin besides our own, or the browser stops at "Allow".
 */
function allowFormRedirectTo(res: Response, redirectUri: string) {
  const policy = res.getHeader('Content-Security-Policy');
  if (typeof policy !== 'string') return;
  const url = new URL(redirectUri);
  // Apps' custom schemes (com.example.app:/cb) have no origin; their scheme is the CSP source.
  const origin = url.origin === 'null' ? url.protocol : url.origin;
  res.setHeader(
    'Content-Security-Policy',
    policy.replace("form-action 'self'", `form-action 'self' ${origin}`),
  );
}

/**
 * Whether the signed-in user may give access: their address is verified. An unverified one gets the
 * "verify first" page (403) and 'refused'; a user gone meanwhile is 'gone' (the caller decides).
 */
async function verificationOf(
  deps: AuthorizeRoutesDependencies,
  req: Request,
  res: Response,
  userId: string,
): Promise<{ user: User } | 'refused' | 'gone'> {
  const [user, credential] = await Promise.all([
    deps.repos.users.findById(userId),
    deps.repos.credentials.findByUserId(userId),
  ]);
  if (!user || !credential) return 'gone';
  if (credential.emailVerifiedAt) return { user };
  const csrfToken = issueCsrfToken(req, res, deps.secureCookies);
  res
    .status(403)
    .type('html')
    .send(verifyFirstPage({ csrfToken, email: user.email }));
  return 'refused';
}

function redirectToSignIn(req: Request, res: Response) {
  res.redirect(302, `/login?return_to=${encodeURIComponent(req.originalUrl)}`);
}

/** Validates the request and, past the per-IP budget, answers temporarily_unavailable (spec's table). */
async function checkRequest(deps: AuthorizeRoutesDependencies, req: Request, input: Record<string, unknown>) {
  const check = await checkAuthorizationRequest(input, deps.repos.clients, deps.resources);
  if (check.outcome !== 'valid') return check;
  const budget = await deps.limiter.hit(`authorize-ip:${clientNetwork(req.ip)}`, deps.maxRequestsPerIp);
  if (!budget.blocked) return check;
  return {
    outcome: 'redirect-error',
    redirectUri: check.redirectUri,
    inFragment: check.params.response_type === 'token',
    error: 'temporarily_unavailable',
    description: 'Too many authorization requests; try again later.',
    state: check.params.state,
  } satisfies AuthorizationCheck;
}

/** Issues what the client asked for once the user allowed: a code through the library, or an implicit token. */
async function grantAccess(
  deps: AuthorizeRoutesDependencies,
  req: Request,
  check: ValidCheck,
  userId: string,
) {
  const grant = await deps.repos.grants.create({
    userId,
    clientId: check.client.id,
    scope: check.client.scope,
  });
  if (check.params.response_type === 'token') {
    const issued = await issueImplicitToken(deps, {
      userId,
      clientId: check.client.id,
      grantId: grant.id,
      scope: check.client.scope,
      ttlSeconds: deps.accessTokenTtlSeconds,
    });
    const params = {
      access_token: issued.accessToken,
      token_type: 'bearer',
      expires_in: String(issued.expiresIn),
      state: check.params.state,
    };
    return buildRedirect(check.redirectUri, params, { inFragment: true });
  }
  const user: AuthorizingUser = {
    id: userId,
    grantId: grant.id,
    redirectUriSent: !!check.params.redirect_uri,
  };
  const response = newOAuthResponse();
  await deps.oauth
    .authorize(toOAuthRequest(req, { query: { ...check.params }, body: {} }), response, {
      authenticateHandler: { handle: () => user },
    })
    .catch(() => undefined); // On a refusal the library has already pointed the response at the error redirect.
  const location = (response.headers as Record<string, string>).location;
  if (!location) throw new Error('authorization produced no redirect');
  return location;
}

/** `GET /oauth2/authorize` shows consent (after sign-in); `POST` records the user's decision. */
export function authorizeRoutes(deps: AuthorizeRoutesDependencies): Router {
  const router = Router();

  router.get('/oauth2/authorize', async (req, res) => {
    const check = await checkRequest(deps, req, req.query);
    if (check.outcome !== 'valid') return answerCheckFailure(res, check);
    const session = await deps.sessions.find(readCookie(req, SESSION_COOKIE));
    if (!session) return redirectToSignIn(req, res);
    res.setHeader('Cache-Control', 'no-store');
    const verified = await verificationOf(deps, req, res, session.userId);
    if (verified === 'refused') return;
    // A session whose account is gone signs in again.
    if (verified === 'gone') return redirectToSignIn(req, res);
    const { user } = verified;
    const csrfToken = issueCsrfToken(req, res, deps.secureCookies);
    allowFormRedirectTo(res, check.redirectUri);
    res.type('html').send(
      consentPage({
        csrfToken,
        email: user.email,
        returnTo: req.originalUrl,
        clientName: check.client.name,
        scopes: parseScope(check.client.scope),
        redirectHost: new URL(check.redirectUri).host || check.redirectUri,
        selfRegistered: check.client.tokenEndpointAuthMethod === 'none',
        hiddenFields: { ...check.params } as Record<string, string>,
      }),
    );
  });

  router.post('/oauth2/authorize', pageForm, async (req: Request, res: Response) => {
    const check = await checkRequest(deps, req, req.body);
    if (check.outcome !== 'valid') return answerCheckFailure(res, check);
    const session = await deps.sessions.find(readCookie(req, SESSION_COOKIE));
    if (!session) return redirectToSignIn(req, res);
    if (req.body.decision !== 'allow') {
      return res.redirect(302, redirectError(check, 'access_denied', 'The user denied access.'));
    }
    // A user gone meanwhile falls through: granting fails and the client gets server_error.
    if ((await verificationOf(deps, req, res, session.userId)) === 'refused') return;
    try {
      res.redirect(302, await grantAccess(deps, req, check, session.userId));
    } catch (error) {
      // The client learns the flow failed (spec's server_error) instead of the user being stranded here.
      requestLogger(deps.logger, req).error({ err: error, requestId: req.id }, 'authorization failed');
      res.redirect(302, redirectError(check, 'server_error', 'The server could not complete the request.'));
    }
  });

  return router;
}
