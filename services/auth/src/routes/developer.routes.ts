import { AppError } from '@pfs/errors';
import type { User } from '@pfs/resource-store';
import { Request, Response, Router } from 'express';
import { createClient, CreatedClient } from '../use-cases/create-client.use-case';
import { issueCsrfToken } from '../web/csrf';
import { pageForm } from '../web/form';
import { developerPage } from '../web/developer.pages';
import { findSignedInUser } from '../web/require-session';
import type { SessionStore } from '../web/session.store';
import type { AuthRepositories } from '../auth-repositories';

export interface DeveloperRoutesDependencies {
  repos: Pick<AuthRepositories, 'users' | 'clients'>;
  sessions: SessionStore;
  secureCookies: boolean;
}

/** Checkboxes arrive as one value or several. */
function joinScope(value: unknown): string {
  if (Array.isArray(value)) return value.filter((item) => typeof item === 'string').join(' ');
  return typeof value === 'string' ? value : '';
}

export function developerRoutes(deps: DeveloperRoutesDependencies): Router {
  const router = Router();

  async function render(
    req: Request,
    res: Response,
    user: User,
    extra: {
      created?: CreatedClient;
      error?: string;
      form?: { name?: string; redirectUri?: string; scope?: string };
    },
  ) {
    const apps = await deps.repos.clients.listByOwner(user.id);
    const csrfToken = issueCsrfToken(req, res, deps.secureCookies);
    res.setHeader('Cache-Control', 'no-store');
    res.status(extra.error ? 400 : extra.created ? 201 : 200).type('html');
    res.send(developerPage({ csrfToken, email: user.email, apps, ...extra }));
  }

  router.get('/developer', async (req, res) => {
    const user = await findSignedInUser(deps, req, res);
    if (user) await render(req, res, user, {});
  });

  router.post('/developer/apps', pageForm, async (req: Request, res: Response) => {
    const user = await findSignedInUser(deps, req, res);
    if (!user) return;
    const form = {
      name: typeof req.body.name === 'string' ? req.body.name : '',
      redirectUri: typeof req.body.redirect_uri === 'string' ? req.body.redirect_uri : '',
      scope: joinScope(req.body.scope),
    };
    try {
      const created = await createClient(deps, { ...form, implicit: req.body.implicit === 'yes' }, user.id);
      await render(req, res, user, { created });
    } catch (error) {
      if (!(error instanceof AppError) || !error.isExposed) throw error;
      const problems = (error.fields ?? []).map(
        (field) => `${field.field.replace('redirectUri', 'redirect URI')} ${field.error}`,
      );
      await render(req, res, user, { error: `${problems.join('; ')}.`, form });
    }
  });

  return router;
}
