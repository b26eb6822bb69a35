import { requestLogger } from '@pfs/http';
import { AppError } from '@pfs/errors';
import { hashToken } from '@pfs/contracts';
import type { Logger } from '@pfs/logger';
import { Request, Response, Router } from 'express';
import { clientNetwork } from '../security/client-network';
import type { RateLimiter } from '../security/rate-limiter';
import {
  isLiveResetLink,
  PasswordResetDependencies,
  resetPassword,
  sendPasswordResetLink,
  sendVerificationLink,
  verifyEmail,
} from '../use-cases/account-mail.use-case';
import { clearCookie, SESSION_COOKIE } from '../web/cookies';
import { issueCsrfToken } from '../web/csrf';
import { forgotPasswordPage, messagePage, resetPasswordPage } from '../web/account-mail.pages';
import { pageForm } from '../web/form';
import { findSignedInUser } from '../web/require-session';
import { readSecretQuery } from '../web/secret-query.middleware';

export interface AccountMailRoutesDependencies extends PasswordResetDependencies {
  limiter: RateLimiter;
  logger: Logger;
  secureCookies: boolean;
  maxMailsPerAddress: number;
  maxMailsPerIp: number;
}

const NO_MAIL = messagePage({
  title: 'Not available',
  message:
    'This server sends no mail, so passwords cannot be reset by mail here. Ask the operator of this server.',
  link: { href: '/login', label: 'Back to sign-in' },
  status: 'alert',
});

const LINK_USED = (again: { href: string; label: string }) =>
  messagePage({
    title: 'Link used up or expired',
    message: 'This link has been used already or has expired.',
    link: again,
    status: 'alert',
  });

/**
 * Mail budgets, counted the same for known and unknown addresses (per client network and per address),
 * so nobody can flood a mailbox and the limit tells nothing about who has an account.
 */
async function mailBudget(deps: AccountMailRoutesDependencies, req: Request, email: string) {
  const byIp = await deps.limiter.hit(`mail-ip:${clientNetwork(req.ip)}`, deps.maxMailsPerIp);
  if (byIp.blocked) return byIp;
  return deps.limiter.hit(`mail-address:${hashToken(email.toLowerCase())}`, deps.maxMailsPerAddress);
}

/** Password reset by mail, the verification link, and sending that link again. */
export function accountMailRoutes(deps: AccountMailRoutesDependencies): Router {
  const router = Router();
  const page = (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    return issueCsrfToken(req, res, deps.secureCookies);
  };

  router.get('/forgot-password', (req, res) => {
    if (!deps.mailer) return res.status(404).type('html').send(NO_MAIL);
    res.type('html').send(forgotPasswordPage({ csrfToken: page(req, res) }));
  });

  router.post('/forgot-password', pageForm, async (req: Request, res: Response) => {
    if (!deps.mailer) return res.status(404).type('html').send(NO_MAIL);
    const csrfToken = page(req, res);
    const email = typeof req.body.email === 'string' ? req.body.email.trim() : '';
    if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254) {
      const error = 'Enter the email address of your account, like name@example.com.';
      return res.status(400).type('html').send(forgotPasswordPage({ csrfToken, error }));
    }
    const budget = await mailBudget(deps, req, email);
    if (budget.blocked) {
      res.setHeader('Retry-After', String(budget.retryAfterSeconds));
      const error = 'Too many requests for a link. Wait a few minutes and try again.';
      return res.status(429).type('html').send(forgotPasswordPage({ csrfToken, error }));
    }
    // The answer leaves before the lookup: the same page, at the same moment, for every address.
    res.type('html').send(forgotPasswordPage({ csrfToken, sentTo: email }));
    sendPasswordResetLink(deps, email).catch((error: unknown) =>
      requestLogger(deps.logger, req).warn({ err: error, requestId: req.id }, 'password reset mail not sent'),
    );
  });

  router.get('/reset-password', async (req, res) => {
    const token = readSecretQuery(res).token;
    if (typeof token !== 'string' || !(await isLiveResetLink(deps, token)))
      return res
        .status(400)
        .type('html')
        .send(LINK_USED({ href: '/forgot-password', label: 'Ask for a new link' }));
    res.type('html').send(resetPasswordPage({ csrfToken: page(req, res), token }));
  });

  router.post('/reset-password', pageForm, async (req: Request, res: Response) => {
    const csrfToken = page(req, res);
    try {
      await resetPassword(deps, { token: req.body.token, password: req.body.password });
    } catch (error) {
      if (!(error instanceof AppError) || !error.isExposed) throw error;
      const field = error.fields?.[0];
      if (field?.field === 'password' && typeof req.body.token === 'string') {
        const message = `The password ${field.error}.`;
        return res
          .status(400)
          .type('html')
          .send(resetPasswordPage({ csrfToken, token: req.body.token, error: message }));
      }
      return res
        .status(400)
        .type('html')
        .send(LINK_USED({ href: '/forgot-password', label: 'Ask for a new link' }));
    }
    clearCookie(res, SESSION_COOKIE, deps.secureCookies);
    res.type('html').send(
      messagePage({
        title: 'Password changed',
        message: 'Your new password is set. Every browser and application was signed out.',
        link: { href: '/login', label: 'Sign in' },
      }),
    );
  });

  router.get('/verify-email', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (!(await verifyEmail(deps, readSecretQuery(res).token)))
      return res
        .status(400)
        .type('html')
        .send(LINK_USED({ href: '/account', label: 'Send a new link from your account' }));
    res.type('html').send(
      messagePage({
        title: 'Email verified',
        message: 'Thank you: your email address is verified.',
        link: { href: '/account', label: 'Go to your account' },
      }),
    );
  });

  router.post('/account/verify-email/resend', pageForm, async (req: Request, res: Response) => {
    const user = await findSignedInUser(deps, req, res);
    if (!user) return;
    const budget = await mailBudget(deps, req, user.email);
    if (budget.blocked) {
      res.setHeader('Retry-After', String(budget.retryAfterSeconds));
      const message = 'Too many links were sent. Wait a few minutes and try again.';
      const link = { href: '/account', label: 'Back to your account' };
      return res
        .status(429)
        .type('html')
        .send(messagePage({ title: 'Please wait', message, link }));
    }
    const sent = await sendVerificationLink(deps, user);
    res.type('html').send(
      messagePage({
        title: sent ? 'Link sent' : 'Not available',
        message: sent
          ? `We sent a new link to ${user.email}. It works once, for 24 hours.`
          : 'This server sends no mail.',
        link: { href: '/account', label: 'Back to your account' },
      }),
    );
  });

  return router;
}
