import { Request, Response, Router } from 'express';
import { SecondFactorDependencies, verifySecondFactor } from '../use-cases/verify-second-factor.use-case';
import { clearCookie, PENDING_SIGNIN_COOKIE, readCookie } from '../web/cookies';
import { issueCsrfToken } from '../web/csrf';
import { pageForm } from '../web/form';
import { signInSecondFactorPage } from '../web/pages';
import { LoginRoutesDependencies, startSession } from './login.routes';

export interface LoginTwoFactorRoutesDependencies extends LoginRoutesDependencies {
  secondFactor: SecondFactorDependencies;
}

const MESSAGES = {
  missing: 'Enter the code.',
  invalid: 'That code is not right. Try the current code from your app.',
  throttled: 'Too many wrong codes. Wait a few minutes and try again.',
} as const;

/** The second step of signing in for users with two-factor: the same check, limits and recovery codes as the token request. */
export function loginTwoFactorRoutes(deps: LoginTwoFactorRoutesDependencies): Router {
  const router = Router();

  router.get('/login/two-factor', async (req, res) => {
    if (!(await deps.sessions.findPending(readCookie(req, PENDING_SIGNIN_COOKIE))))
      return res.redirect(303, '/login');
    const csrfToken = issueCsrfToken(req, res, deps.secureCookies);
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(signInSecondFactorPage({ csrfToken }));
  });

  router.post('/login/two-factor', pageForm, async (req: Request, res: Response) => {
    const pendingId = readCookie(req, PENDING_SIGNIN_COOKIE);
    const pending = await deps.sessions.findPending(pendingId);
    if (!pending) return res.redirect(303, '/login');
    const code = typeof req.body.code === 'string' ? req.body.code : undefined;
    const result = await verifySecondFactor(deps.secondFactor, pending.userId, code, 'signin');
    if (result.outcome === 'valid' || result.outcome === 'not-required') {
      await deps.sessions.destroyPending(pendingId);
      clearCookie(res, PENDING_SIGNIN_COOKIE, deps.secureCookies);
      await startSession(deps, req, res, pending.userId);
      return res.redirect(303, pending.returnTo);
    }
    if (result.outcome === 'throttled') res.setHeader('Retry-After', String(result.retryAfterSeconds));
    const status = { missing: 400, invalid: 401, throttled: 429 }[result.outcome];
    const csrfToken = issueCsrfToken(req, res, deps.secureCookies);
    res
      .status(status)
      .type('html')
      .send(signInSecondFactorPage({ csrfToken, error: MESSAGES[result.outcome] }));
  });

  return router;
}
