import { AppError } from '@pfs/errors';
import type { User } from '@pfs/resource-store';
import { Request, Response, Router } from 'express';
import { changePassword } from '../use-cases/account-security.use-case';
import { clearCookie, readCookie, SESSION_COOKIE } from '../web/cookies';
import { pageForm } from '../web/form';
import { findSignedInUser } from '../web/require-session';
import { accountRenderer, AccountRoutesDependencies } from './account.routes';
import { html } from '../web/html';

/** Password change and the sign-in sessions of the account page: behind sign-in and CSRF like the rest. */
export function accountSecurityRoutes(deps: AccountRoutesDependencies): Router {
  const router = Router();
  const render = accountRenderer(deps);

  function action(path: string, run: (req: Request, res: Response, user: User) => Promise<void>) {
    router.post(path, pageForm, async (req: Request, res: Response) => {
      const user = await findSignedInUser(deps, req, res);
      if (user) await run(req, res, user);
    });
  }

  action('/account/password', async (req, res, user) => {
    try {
      const changed = await changePassword(deps, {
        user,
        currentPassword: req.body.current_password,
        newPassword: req.body.new_password,
        ip: req.ip,
        keepSessionHash: deps.sessions.idOf(readCookie(req, SESSION_COOKIE)),
      });
      if (changed.outcome === 'throttled') {
        res.setHeader('Retry-After', String(changed.retryAfterSeconds));
        const error = 'Too many wrong passwords. Try again later.';
        return render(req, res, user, { passwordErrors: { current_password: error }, status: 429 });
      }
      const ended = changed.endedSessions;
      await render(req, res, user, {
        notice: html`<p>Password changed. ${ended ? `${ended} other sign-in(s) ended.` : ''}</p>`,
      });
    } catch (error) {
      if (!(error instanceof AppError) || !error.isExposed) throw error;
      const field = error.fields?.[0];
      const name = field?.field === 'current_password' ? 'current_password' : 'new_password';
      const label = name === 'current_password' ? 'The current password' : 'The new password';
      await render(req, res, user, {
        passwordErrors: { [name]: `${label} ${field?.error ?? 'is invalid'}.` },
      });
    }
  });

  action('/account/sessions/:id/end', async (req, res, user) => {
    await deps.sessions.destroyListed(user.id, String(req.params.id));
    res.redirect(303, '/account');
  });

  action('/account/sessions/end-all', async (_req, res, user) => {
    await deps.sessions.destroyAllOf(user.id);
    clearCookie(res, SESSION_COOKIE, deps.secureCookies);
    res.redirect(303, '/login');
  });

  return router;
}
