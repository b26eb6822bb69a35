import type OAuth2Server from '@node-oauth/oauth2-server';
import { parseScope } from '@pfs/contracts';
import express, { Request, Response, Router } from 'express';
import type { AuthorizingUser } from '../oauth/oauth-model';
import { AuthorizationCheck, buildRedirect, checkAuthorizationRequest } from '../oauth/authorization-request';
import { newOAuthResponse, toOAuthRequest } from '../oauth/express-adapter';
import type { ClientRepository } from '../repositories/client.repository';
import type { GrantRepository } from '../repositories/grant.repository';
import { readCookie, SESSION_COOKIE } from '../web/cookies';
import { isValidCsrfToken, issueCsrfToken } from '../web/csrf';
import { consentPage, errorPage } from '../web/pages';
import type { SessionStore } from '../web/session.store';

export interface AuthorizeRoutesDependencies {
  oauth: OAuth2Server;
  clients: ClientRepository;
  grants: GrantRepository;
  sessions: SessionStore;
  secureCookies: boolean;
}

function answerCheckFailure(res: Response, check: Exclude<AuthorizationCheck, { outcome: 'valid' }>) {
  if (check.outcome === 'error-page') {
    res.status(400).type('html').send(errorPage('Authorization failed', check.message));
    return;
  }
  res.redirect(
    302,
    buildRedirect(check.redirectUri, {
      error: check.error,
      error_description: check.description,
      state: check.state,
    }),
  );
}

function redirectToSignIn(req: Request, res: Response) {
  res.redirect(302, `/login?return_to=${encodeURIComponent(req.originalUrl)}`);
}

/** `GET /oauth2/authorize` shows consent (after sign-in); `POST` records the user's decision. */
export function authorizeRoutes(deps: AuthorizeRoutesDependencies): Router {
  const router = Router();

  router.get('/oauth2/authorize', async (req, res) => {
    const check = await checkAuthorizationRequest(req.query, deps.clients);
    if (check.outcome !== 'valid') return answerCheckFailure(res, check);
    const session = await deps.sessions.find(readCookie(req, SESSION_COOKIE));
    if (!session) return redirectToSignIn(req, res);
    const csrfToken = issueCsrfToken(req, res, deps.secureCookies);
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(
      consentPage({
        csrfToken,
        clientName: check.client.name,
        scopes: parseScope(check.client.scope),
        hiddenFields: { ...check.params } as Record<string, string>,
      }),
    );
  });

  router.post(
    '/oauth2/authorize',
    express.urlencoded({ extended: false, limit: '16kb' }),
    async (req, res) => {
      if (!isValidCsrfToken(req)) {
        res.status(403).type('html').send(errorPage('Request expired', 'Reload the page and try again.'));
        return;
      }
      const check = await checkAuthorizationRequest(req.body, deps.clients);
      if (check.outcome !== 'valid') return answerCheckFailure(res, check);
      const session = await deps.sessions.find(readCookie(req, SESSION_COOKIE));
      if (!session) return redirectToSignIn(req, res);
      if (req.body.decision !== 'allow') {
        res.redirect(
          302,
          buildRedirect(check.redirectUri, {
            error: 'access_denied',
            error_description: 'The user denied access.',
            state: check.params.state,
          }),
        );
        return;
      }
      const grant = await deps.grants.create({
        userId: session.userId,
        clientId: check.client.id,
        scope: check.client.scope,
      });
      const user: AuthorizingUser = {
        id: session.userId,
        grantId: grant.id,
        redirectUriSent: check.params.redirect_uri !== undefined,
      };
      const response = newOAuthResponse();
      try {
        await deps.oauth.authorize(toOAuthRequest(req, { query: { ...check.params }, body: {} }), response, {
          authenticateHandler: { handle: () => user },
        });
      } catch {
        // The library has already pointed the response at the redirect URI with the error.
      }
      const location = (response.headers as Record<string, string>).location;
      if (!location) throw new Error('authorization produced no redirect');
      res.redirect(302, location);
    },
  );

  return router;
}
