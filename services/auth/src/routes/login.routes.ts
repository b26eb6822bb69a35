import { UserRepository } from '@pfs/resource-store';
import express, { Router } from 'express';
import type { PasswordHasher } from '../password-hasher';
import type { CredentialRepository } from '../repositories/credential.repository';
import { SESSION_COOKIE, setCookie } from '../web/cookies';
import { isValidCsrfToken, issueCsrfToken } from '../web/csrf';
import { errorPage, signInPage } from '../web/pages';
import type { SessionStore } from '../web/session.store';

export interface LoginRoutesDependencies {
  users: UserRepository;
  credentials: CredentialRepository;
  passwords: PasswordHasher;
  sessions: SessionStore;
  secureCookies: boolean;
  sessionTtlSeconds: number;
}

/** Only our own pages may be returned to after sign-in: no open redirect. */
function safeReturnTo(value: unknown): string {
  return typeof value === 'string' && value.startsWith('/oauth2/authorize?') ? value : '/';
}

export function loginRoutes(deps: LoginRoutesDependencies): Router {
  const router = Router();

  router.get('/login', (req, res) => {
    const csrfToken = issueCsrfToken(req, res, deps.secureCookies);
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(signInPage({ csrfToken, returnTo: safeReturnTo(req.query.return_to) }));
  });

  router.post('/login', express.urlencoded({ extended: false, limit: '16kb' }), async (req, res) => {
    if (!isValidCsrfToken(req)) {
      res.status(403).type('html').send(errorPage('Request expired', 'Reload the page and try again.'));
      return;
    }
    const email = typeof req.body.email === 'string' ? req.body.email.trim() : '';
    const password = typeof req.body.password === 'string' ? req.body.password : '';
    const returnTo = safeReturnTo(req.body.return_to);
    const user = email ? await deps.users.findByEmail(email) : undefined;
    const credential = user ? await deps.credentials.findByUserId(user.id) : undefined;
    const valid = await deps.passwords.verify(credential?.passwordHash, password);
    if (!user || !valid) {
      const csrfToken = issueCsrfToken(req, res, deps.secureCookies);
      res
        .status(401)
        .type('html')
        .send(signInPage({ csrfToken, returnTo, email, error: 'The email or password is incorrect.' }));
      return;
    }
    const sessionId = await deps.sessions.create(user.id);
    setCookie(res, SESSION_COOKIE, sessionId, {
      secure: deps.secureCookies,
      maxAgeSeconds: deps.sessionTtlSeconds,
    });
    res.redirect(303, returnTo);
  });

  return router;
}
