import { AppError } from '@pfs/errors';
import type { User } from '@pfs/resource-store';
import { Request, Response, Router } from 'express';
import type { RawHtml } from '../web/html';
import {
  beginTwoFactorSetup,
  disableTwoFactor,
  enableTwoFactor,
  findPendingSetup,
  getTwoFactorStatus,
  TwoFactorDependencies,
} from '../use-cases/manage-two-factor.use-case';
import {
  createPersonalToken,
  listPersonalTokens,
  PersonalTokenDependencies,
  revokePersonalToken,
} from '../use-cases/personal-tokens.use-case';
import { GrantRevocationDependencies, revokeClientAccess } from '../use-cases/revoke-grants.use-case';
import { accountPage, newTokenNotice, recoveryCodesNotice, twoFactorSetupPage } from '../web/account.pages';
import { issueCsrfToken } from '../web/csrf';
import { pageForm } from '../web/form';
import {
  countPasswordAttempt,
  forgivePasswordAttempt,
  PasswordAttemptLimits,
} from '../security/password-attempts';
import { findSignedInUser } from '../web/require-session';
import { readCookie, SESSION_COOKIE } from '../web/cookies';
import type { PasswordFormErrors } from '../web/account-security.pages';
import type { SessionStore } from '../web/session.store';
import type { AuthRepositories } from '../auth-repositories';

export interface AccountRoutesDependencies
  extends TwoFactorDependencies, PersonalTokenDependencies, GrantRevocationDependencies {
  repos: Pick<AuthRepositories, 'users' | 'grants' | 'tokens' | 'credentials' | 'recoveryCodes'>;
  sessions: SessionStore;
  secureCookies: boolean;
  passwordLimits: PasswordAttemptLimits;
}

/** The message of a client error, for showing on the page; anything else goes to the error middleware. */
function userMessage(error: unknown): string {
  if (!(error instanceof AppError) || !error.isExposed) throw error;
  const fields = error.fields?.map((field) => `${field.field.replace('_', ' ')} ${field.error}`);
  return fields?.length ? `${fields.join('; ')}.` : error.message;
}

/** What the account page shows besides the main sections: a notice, an error, field errors of a form. */
export interface AccountPageExtra {
  notice?: RawHtml;
  error?: string;
  passwordErrors?: PasswordFormErrors;
  errorField?: string;
  status?: number;
}

/** Renders the account page of a signed-in user (every settings action answers with it). */
export function accountRenderer(deps: AccountRoutesDependencies) {
  return async (req: Request, res: Response, user: User, extra: AccountPageExtra = {}) => {
    const [twoFactor, tokens, apps, credential, sessions] = await Promise.all([
      getTwoFactorStatus(deps, user.id),
      listPersonalTokens(deps, user.id),
      deps.repos.grants.listConnectedApps(user.id),
      deps.repos.credentials.findByUserId(user.id),
      deps.sessions.listOf(user.id),
    ]);
    const csrfToken = issueCsrfToken(req, res, deps.secureCookies);
    res.setHeader('Cache-Control', 'no-store');
    const failed = extra.error || Object.keys(extra.passwordErrors ?? {}).length;
    res.status(extra.status ?? (failed ? 400 : 200)).type('html');
    res.send(
      accountPage({
        csrfToken,
        email: user.email,
        verified: !!credential?.emailVerifiedAt,
        twoFactor,
        tokens,
        apps,
        sessions,
        currentSessionId: deps.sessions.idOf(readCookie(req, SESSION_COOKIE)),
        ...extra,
      }),
    );
  };
}

/** Account settings: two-factor, personal tokens and connected applications, all behind sign-in and CSRF. */
export function accountRoutes(deps: AccountRoutesDependencies): Router {
  const router = Router();

  const render = accountRenderer(deps);
  const isVerified = async (userId: string) =>
    !!(await deps.repos.credentials.findByUserId(userId))?.emailVerifiedAt;

  /** Every POST: CSRF first, then the signed-in user, then the action. */
  function action(path: string, run: (req: Request, res: Response, user: User) => Promise<void>) {
    router.post(path, pageForm, async (req: Request, res: Response) => {
      const user = await findSignedInUser(deps, req, res);
      if (user) await run(req, res, user);
    });
  }

  router.get('/account', async (req, res) => {
    const user = await findSignedInUser(deps, req, res);
    if (user) await render(req, res, user);
  });

  action('/account/two-factor/setup', async (req, res, user) => {
    const setup = await beginTwoFactorSetup(deps, { userId: user.id, accountName: user.email }).catch(
      (error) => {
        return { error: userMessage(error) };
      },
    );
    if ('error' in setup) return render(req, res, user, { error: setup.error });
    const csrfToken = issueCsrfToken(req, res, deps.secureCookies);
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(twoFactorSetupPage({ csrfToken, email: user.email, setup }));
  });

  action('/account/two-factor/enable', async (req, res, user) => {
    try {
      const codes = await enableTwoFactor(deps, { userId: user.id, code: req.body.code });
      await render(req, res, user, { notice: recoveryCodesNotice(codes) });
    } catch (error) {
      const message = userMessage(error);
      const setup = await findPendingSetup(deps, { userId: user.id, accountName: user.email });
      if (!setup) return render(req, res, user, { error: message });
      const csrfToken = issueCsrfToken(req, res, deps.secureCookies);
      res
        .status(400)
        .type('html')
        .send(twoFactorSetupPage({ csrfToken, email: user.email, setup, error: message }));
    }
  });

  // The password check counts against the sign-in limits: a borrowed session must not become a guessing oracle.
  action('/account/two-factor/disable', async (req, res, user) => {
    const attempt = { email: user.email, ip: req.ip };
    const throttle = await countPasswordAttempt(deps.passwordLimits, attempt);
    if (throttle) {
      res.setHeader('Retry-After', String(throttle.retryAfterSeconds));
      return render(req, res, user, { error: 'Too many wrong passwords. Try again later.', status: 429 });
    }
    try {
      await disableTwoFactor(deps, { userId: user.id, password: req.body.password });
      await forgivePasswordAttempt(deps.passwordLimits, attempt);
      await render(req, res, user);
    } catch (error) {
      await render(req, res, user, { error: userMessage(error), errorField: 'disable_password' });
    }
  });

  action('/account/tokens', async (req, res, user) => {
    if (!(await isVerified(user.id))) {
      const error = 'Verify your email address first: personal tokens need a verified address.';
      return render(req, res, user, { error, status: 403 });
    }
    try {
      const created = await createPersonalToken(deps, { userId: user.id, name: req.body.name });
      await render(req, res, user, { notice: newTokenNotice(created.name, created.token) });
    } catch (error) {
      await render(req, res, user, { error: userMessage(error), errorField: 'token_name' });
    }
  });

  action('/account/tokens/:id/revoke', async (req, res, user) => {
    try {
      await revokePersonalToken(deps, { userId: user.id, tokenId: String(req.params.id) });
      res.redirect(303, '/account');
    } catch (error) {
      await render(req, res, user, { error: userMessage(error) });
    }
  });

  action('/account/apps/:clientId/revoke', async (_req, res, user) => {
    await revokeClientAccess(deps, { userId: user.id, clientId: String(_req.params.clientId) });
    res.redirect(303, '/account');
  });

  return router;
}
