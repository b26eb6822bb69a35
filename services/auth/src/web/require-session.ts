import type { User } from '@pfs/resource-store';
import type { AuthRepositories } from '../auth-repositories';
import type { Request, Response } from 'express';
import { readCookie, SESSION_COOKIE } from './cookies';
import type { SessionStore } from './session.store';

/** The signed-in user of a settings page, or a redirect to sign-in (then back) and undefined. */
export async function findSignedInUser(
  deps: { sessions: SessionStore; repos: Pick<AuthRepositories, 'users'> },
  req: Request,
  res: Response,
): Promise<User | undefined> {
  const session = await deps.sessions.find(readCookie(req, SESSION_COOKIE));
  const user = session ? await deps.repos.users.findById(session.userId) : undefined;
  if (!user) {
    const returnTo = req.method === 'GET' ? req.path : '/account';
    res.redirect(303, `/login?return_to=${encodeURIComponent(returnTo)}`);
    return undefined;
  }
  return user;
}
