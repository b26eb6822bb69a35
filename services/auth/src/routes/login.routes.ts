import { AppError } from '@pfs/errors';
import { UserRepository } from '@pfs/resource-store';
import express, { Request, Response, Router } from 'express';
import type { DataSource } from 'typeorm';
import type { PasswordHasher } from '../password-hasher';
import type { CredentialRepository } from '../repositories/credential.repository';
import type { RateLimiter } from '../security/rate-limiter';
import { createUser } from '../use-cases/create-user.use-case';
import { clearCookie, PENDING_SIGNIN_COOKIE, readCookie, SESSION_COOKIE, setCookie } from '../web/cookies';
import { isValidCsrfToken, issueCsrfToken } from '../web/csrf';
import { errorPage, signInPage, signUpPage } from '../web/pages';
import type { SessionStore } from '../web/session.store';

export interface LoginRoutesDependencies {
  dataSource: DataSource;
  users: UserRepository;
  credentials: CredentialRepository;
  passwords: PasswordHasher;
  sessions: SessionStore;
  limiter: RateLimiter;
  secureCookies: boolean;
  sessionTtlSeconds: number;
  maxFailuresPerAccount: number;
  maxFailuresPerIp: number;
}

/** Only our own pages may be returned to after sign-in: no open redirect. */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string') return '/account';
  const allowed = value.startsWith('/oauth2/authorize?') || /^\/(account|developer)(\/[a-z-]*)?$/.test(value);
  return allowed ? value : '/account';
}

function refuseExpiredForm(res: Response) {
  res.status(403).type('html').send(errorPage('Request expired', 'Reload the page and try again.'));
}

export async function startSession(deps: LoginRoutesDependencies, res: Response, userId: string) {
  const sessionId = await deps.sessions.create(userId);
  setCookie(res, SESSION_COOKIE, sessionId, {
    secure: deps.secureCookies,
    maxAgeSeconds: deps.sessionTtlSeconds,
  });
}

/** Brute-force limits: failed sign-ins are counted per account and per IP; past either, 429 + Retry-After. */
async function findThrottle(deps: LoginRoutesDependencies, req: Request, email: string) {
  const checks = await Promise.all([
    deps.limiter.check(`signin-account:${email.toLowerCase()}`, deps.maxFailuresPerAccount),
    deps.limiter.check(`signin-ip:${req.ip}`, deps.maxFailuresPerIp),
  ]);
  return checks.find((check) => check.blocked);
}

async function countFailure(deps: LoginRoutesDependencies, req: Request, email: string) {
  await deps.limiter.hit(`signin-account:${email.toLowerCase()}`, deps.maxFailuresPerAccount);
  await deps.limiter.hit(`signin-ip:${req.ip}`, deps.maxFailuresPerIp);
}

export function loginRoutes(deps: LoginRoutesDependencies): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '16kb' });

  router.get('/login', (req, res) => {
    const csrfToken = issueCsrfToken(req, res, deps.secureCookies);
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(signInPage({ csrfToken, returnTo: safeReturnTo(req.query.return_to) }));
  });

  router.post('/login', form, async (req, res) => {
    if (!isValidCsrfToken(req)) return refuseExpiredForm(res);
    const email = typeof req.body.email === 'string' ? req.body.email.trim() : '';
    const password = typeof req.body.password === 'string' ? req.body.password : '';
    const returnTo = safeReturnTo(req.body.return_to);
    const csrfToken = issueCsrfToken(req, res, deps.secureCookies);
    const throttle = await findThrottle(deps, req, email);
    if (throttle) {
      const error = 'Too many failed sign-ins. Wait a few minutes and try again.';
      res.setHeader('Retry-After', String(throttle.retryAfterSeconds));
      return res.status(429).type('html').send(signInPage({ csrfToken, returnTo, email, error }));
    }
    const user = email ? await deps.users.findByEmail(email) : undefined;
    const credential = user ? await deps.credentials.findByUserId(user.id) : undefined;
    const valid = await deps.passwords.verify(credential?.passwordHash, password);
    if (!user || !valid) {
      await countFailure(deps, req, email);
      const error = 'The email or password is incorrect.';
      return res.status(401).type('html').send(signInPage({ csrfToken, returnTo, email, error }));
    }
    await deps.limiter.reset(`signin-account:${email.toLowerCase()}`);
    if (credential?.otpEnabledAt) {
      // Two-factor users prove the second factor before any session exists (settings, implicit grant).
      const pendingId = await deps.sessions.createPending({ userId: user.id, returnTo });
      setCookie(res, PENDING_SIGNIN_COOKIE, pendingId, { secure: deps.secureCookies, maxAgeSeconds: 300 });
      return res.redirect(303, '/login/two-factor');
    }
    await startSession(deps, res, user.id);
    res.redirect(303, returnTo);
  });

  router.get('/signup', (req, res) => {
    const csrfToken = issueCsrfToken(req, res, deps.secureCookies);
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(signUpPage({ csrfToken, returnTo: safeReturnTo(req.query.return_to) }));
  });

  router.post('/signup', form, async (req, res) => {
    if (!isValidCsrfToken(req)) return refuseExpiredForm(res);
    // Account creation is counted per IP like failed sign-ins, so one host cannot mint accounts in bulk.
    const budget = await deps.limiter.hit(`signup-ip:${req.ip}`, deps.maxFailuresPerIp);
    if (budget.blocked) {
      res.setHeader('Retry-After', String(budget.retryAfterSeconds));
      return res.status(429).type('html').send(errorPage('Too many sign-ups', 'Try again later.'));
    }
    const returnTo = safeReturnTo(req.body.return_to);
    const text = (name: string) => (typeof req.body[name] === 'string' ? req.body[name] : undefined);
    try {
      const created = await createUser(deps, {
        email: text('email') ?? '',
        password: text('password') ?? '',
        firstName: text('first_name') || undefined,
      });
      await startSession(deps, res, created.user.id);
      res.redirect(303, returnTo);
    } catch (error) {
      if (!(error instanceof AppError) || !error.isExposed) throw error;
      const problems = (error.fields ?? []).map(
        (field) => `${field.field.replace('firstName', 'first name')} ${field.error}`,
      );
      const csrfToken = issueCsrfToken(req, res, deps.secureCookies);
      res
        .status(400)
        .type('html')
        .send(
          signUpPage({
            csrfToken,
            returnTo,
            email: text('email'),
            firstName: text('first_name'),
            errors: problems,
          }),
        );
    }
  });

  router.post('/logout', form, async (req, res) => {
    if (!isValidCsrfToken(req)) return refuseExpiredForm(res);
    await deps.sessions.destroy(readCookie(req, SESSION_COOKIE));
    clearCookie(res, SESSION_COOKIE, deps.secureCookies);
    res.redirect(303, '/login');
  });

  return router;
}
