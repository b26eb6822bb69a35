import { requestLogger } from '@pfs/http';
import { AppError } from '@pfs/errors';
import { Request, Response, Router } from 'express';
import type { PasswordHasher } from '../password-hasher';
import {
  countPasswordAttempt,
  forgivePasswordAttempt,
  PasswordAttemptLimits,
} from '../security/password-attempts';
import { createUser } from '../use-cases/create-user.use-case';
import { AccountMailDependencies, sendVerificationLink } from '../use-cases/account-mail.use-case';
import type { Logger } from '@pfs/logger';
import { clearCookie, PENDING_SIGNIN_COOKIE, readCookie, SESSION_COOKIE, setCookie } from '../web/cookies';
import { issueCsrfToken } from '../web/csrf';
import { pageForm } from '../web/form';
import { errorPage, signInPage, SignUpErrors, signUpPage } from '../web/pages';
import type { SessionStore } from '../web/session.store';
import { clientNetwork } from '../security/client-network';
import type { AuthRepositories } from '../auth-repositories';

export interface LoginRoutesDependencies extends PasswordAttemptLimits, AccountMailDependencies {
  repos: Pick<AuthRepositories, 'users' | 'userAccounts' | 'credentials' | 'emailTokens'>;
  logger: Logger;
  passwords: PasswordHasher;
  sessions: SessionStore;
  secureCookies: boolean;
  sessionTtlSeconds: number;
}

/** Only our own pages may be returned to after sign-in: no open redirect. */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string') return '/account';
  const allowed = value.startsWith('/oauth2/authorize?') || /^\/(account|developer)(\/[a-z-]*)?$/.test(value);
  return allowed ? value : '/account';
}

/**
 * A new session id at every sign-in, and the browser's previous session (another account's, or one planted
 * before sign-in) ends: a session id known before sign-in never works after it.
 */
export async function startSession(
  deps: LoginRoutesDependencies,
  req: Request,
  res: Response,
  userId: string,
) {
  await deps.sessions.destroy(readCookie(req, SESSION_COOKIE));
  const sessionId = await deps.sessions.create(userId, req.get('user-agent'));
  setCookie(res, SESSION_COOKIE, sessionId, {
    secure: deps.secureCookies,
    maxAgeSeconds: deps.sessionTtlSeconds,
  });
}

export function loginRoutes(deps: LoginRoutesDependencies): Router {
  const router = Router();

  router.get('/login', (req, res) => {
    const csrfToken = issueCsrfToken(req, res, deps.secureCookies);
    res.setHeader('Cache-Control', 'no-store');
    res
      .type('html')
      .send(
        signInPage({ csrfToken, returnTo: safeReturnTo(req.query.return_to), resetByMail: !!deps.mailer }),
      );
  });

  router.post('/login', pageForm, async (req: Request, res: Response) => {
    const email = typeof req.body.email === 'string' ? req.body.email.trim() : '';
    const password = typeof req.body.password === 'string' ? req.body.password : '';
    const returnTo = safeReturnTo(req.body.return_to);
    const csrfToken = issueCsrfToken(req, res, deps.secureCookies);
    const attempt = { email, ip: req.ip };
    const throttle = await countPasswordAttempt(deps, attempt);
    if (throttle) {
      const error = 'Too many failed sign-ins. Wait a few minutes and try again.';
      res.setHeader('Retry-After', String(throttle.retryAfterSeconds));
      return res
        .status(429)
        .type('html')
        .send(signInPage({ csrfToken, returnTo, email, error, resetByMail: !!deps.mailer }));
    }
    const user = email ? await deps.repos.users.findByEmail(email) : undefined;
    const credential = user ? await deps.repos.credentials.findByUserId(user.id) : undefined;
    const valid = await deps.passwords.verify(credential?.passwordHash, password);
    if (!user || !valid) {
      const error = 'The email or password is incorrect.';
      return res
        .status(401)
        .type('html')
        .send(signInPage({ csrfToken, returnTo, email, error, resetByMail: !!deps.mailer }));
    }
    await forgivePasswordAttempt(deps, attempt);
    if (credential?.otpEnabledAt) {
      // Two-factor users prove the second factor before any session exists (settings, implicit grant).
      const pendingId = await deps.sessions.createPending({ userId: user.id, returnTo });
      setCookie(res, PENDING_SIGNIN_COOKIE, pendingId, { secure: deps.secureCookies, maxAgeSeconds: 300 });
      return res.redirect(303, '/login/two-factor');
    }
    await startSession(deps, req, res, user.id);
    res.redirect(303, returnTo);
  });

  router.get('/signup', (req, res) => {
    const csrfToken = issueCsrfToken(req, res, deps.secureCookies);
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(signUpPage({ csrfToken, returnTo: safeReturnTo(req.query.return_to) }));
  });

  router.post('/signup', pageForm, async (req: Request, res: Response) => {
    // Account creation is counted per IP like failed sign-ins, so one host cannot mint accounts in bulk.
    const budget = await deps.limiter.hit(`signup-ip:${clientNetwork(req.ip)}`, deps.maxFailuresPerIp);
    if (budget.blocked) {
      res.setHeader('Retry-After', String(budget.retryAfterSeconds));
      return res.status(429).type('html').send(errorPage('Too many sign-ups', 'Try again later.'));
    }
    const returnTo = safeReturnTo(req.body.return_to);
    const text = (name: string) => (typeof req.body[name] === 'string' ? req.body[name] : undefined);
    try {
      const created = await createUser(
        deps,
        {
          email: text('email') ?? '',
          password: text('password') ?? '',
          firstName: text('first_name') || undefined,
        },
        // With mail, the address is verified by its link; without, there is no way to, so it counts as verified.
        { emailVerified: !deps.mailer },
      );
      sendVerificationLink(deps, created.user).catch((error: unknown) =>
        requestLogger(deps.logger, req).warn({ err: error, requestId: req.id }, 'verification mail not sent'),
      );
      await startSession(deps, req, res, created.user.id);
      res.redirect(303, returnTo);
    } catch (error) {
      if (!(error instanceof AppError) || !error.isExposed) throw error;
      const label = { email: 'The email', firstName: 'The first name', password: 'The password' };
      const problems: SignUpErrors = {};
      for (const field of error.fields ?? []) {
        const name = field.field === 'firstName' ? 'first_name' : (field.field as 'email' | 'password');
        const what = label[field.field as keyof typeof label] ?? field.field;
        problems[name] ??= `${what} ${field.error}.`;
      }
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

  router.post('/logout', pageForm, async (req: Request, res: Response) => {
    await deps.sessions.destroy(readCookie(req, SESSION_COOKIE));
    clearCookie(res, SESSION_COOKIE, deps.secureCookies);
    // "Not you?" on the consent page comes back to the same authorization request once signed in.
    const returnTo = req.body.return_to === undefined ? undefined : safeReturnTo(req.body.return_to);
    res.redirect(303, returnTo ? `/login?return_to=${encodeURIComponent(returnTo)}` : '/login');
  });

  return router;
}
