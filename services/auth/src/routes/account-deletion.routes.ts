import { requestTraceOf } from '@pfs/http';
import type { User } from '@pfs/resource-store';
import { Request, Response, Router } from 'express';
import { checkCurrentPassword, PasswordCheckDependencies } from '../use-cases/account-security.use-case';
import {
  deleteAccount,
  DeleteAccountDependencies,
  latestUserDataExport,
  requestUserDataExport,
  UserDataExportDependencies,
} from '../use-cases/delete-account.use-case';
import { messagePage } from '../web/account-mail.pages';
import { deleteAccountPage } from '../web/account-deletion.pages';
import { clearCookie, SESSION_COOKIE } from '../web/cookies';
import { issueCsrfToken } from '../web/csrf';
import { pageForm } from '../web/form';
import { findSignedInUser } from '../web/require-session';
import type { SessionStore } from '../web/session.store';
import type { AuthRepositories } from '../auth-repositories';

export interface AccountDeletionRoutesDependencies
  extends PasswordCheckDependencies, DeleteAccountDependencies, UserDataExportDependencies {
  repos: Pick<AuthRepositories, 'users' | 'tokens' | 'credentials'>;
  sessions: SessionStore;
  secureCookies: boolean;
}

/** `/account/delete`: the user's data export offered first, then deletion after the password is re-checked. */
export function accountDeletionRoutes(deps: AccountDeletionRoutesDependencies): Router {
  const router = Router();

  async function render(
    req: Request,
    res: Response,
    user: User,
    extra: { passwordError?: string; status?: number } = {},
  ) {
    const latestExport = await latestUserDataExport(deps, user.id);
    const csrfToken = issueCsrfToken(req, res, deps.secureCookies);
    res.setHeader('Cache-Control', 'no-store');
    res.status(extra.status ?? (extra.passwordError ? 400 : 200)).type('html');
    res.send(deleteAccountPage({ csrfToken, email: user.email, latestExport, ...extra }));
  }

  router.get('/account/delete', async (req, res) => {
    const user = await findSignedInUser(deps, req, res);
    if (user) await render(req, res, user);
  });

  router.post('/account/delete/export', pageForm, async (req: Request, res: Response) => {
    const user = await findSignedInUser(deps, req, res);
    if (!user) return;
    await requestUserDataExport(deps, { userId: user.id, trace: requestTraceOf(req) });
    res.redirect(303, '/account/delete');
  });

  router.post('/account/delete', pageForm, async (req: Request, res: Response) => {
    const user = await findSignedInUser(deps, req, res);
    if (!user) return;
    const check = await checkCurrentPassword(deps, user, req.body.password, req.ip);
    if (check.outcome === 'throttled') {
      res.setHeader('Retry-After', String(check.retryAfterSeconds));
      const passwordError = 'Too many wrong passwords. Try again later.';
      return render(req, res, user, { passwordError, status: 429 });
    }
    if (check.outcome === 'invalid')
      return render(req, res, user, { passwordError: 'The password is incorrect.' });
    await deleteAccount(deps, user.id);
    clearCookie(res, SESSION_COOKIE, deps.secureCookies);
    res.type('html').send(
      messagePage({
        title: 'Account deleted',
        message: `The account ${user.email} is closed and its data is being erased. Goodbye.`,
        link: { href: '/signup', label: 'Create a new account' },
      }),
    );
  });

  return router;
}
