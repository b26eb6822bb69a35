import { inputError } from '@pfs/errors';
import type { LimitState } from '../security/rate-limiter';
import {
  countPasswordAttempt,
  forgivePasswordAttempt,
  PasswordAttemptLimits,
} from '../security/password-attempts';
import type { AuthRepositories } from '../auth-repositories';
import type { PasswordHasher } from '../password-hasher';
import type { SessionStore } from '../web/session.store';
import { NewUserInputSchema } from './create-user.use-case';

export interface PasswordCheckDependencies {
  repos: Pick<AuthRepositories, 'credentials'>;
  passwords: PasswordHasher;
  passwordLimits: PasswordAttemptLimits;
}

/** The outcome of checking the user's current password under the sign-in limits. */
export type PasswordCheck =
  { outcome: 'valid' } | { outcome: 'invalid' } | ({ outcome: 'throttled' } & LimitState);

/**
 * Checks the current password of a signed-in user, counted against the sign-in limits (a borrowed session
 * must not become a guessing oracle); a right one forgives the attempt.
 */
export async function checkCurrentPassword(
  deps: PasswordCheckDependencies,
  user: { id: string; email: string },
  password: unknown,
  ip: string | undefined,
): Promise<PasswordCheck> {
  const attempt = { email: user.email, ip };
  const throttle = await countPasswordAttempt(deps.passwordLimits, attempt);
  if (throttle) return { outcome: 'throttled', ...throttle };
  const credential = await deps.repos.credentials.findByUserId(user.id);
  const valid =
    typeof password === 'string' && (await deps.passwords.verify(credential?.passwordHash, password));
  if (!valid) return { outcome: 'invalid' };
  await forgivePasswordAttempt(deps.passwordLimits, attempt);
  return { outcome: 'valid' };
}

/**
 * Changes the password of a signed-in user who gave the current one; every other sign-in session ends
 * (the one that changed it stays). Throws an input error naming `current_password` or `new_password`;
 * a `throttled` outcome is returned for the 429.
 */
export async function changePassword(
  deps: PasswordCheckDependencies & { sessions: SessionStore },
  options: {
    user: { id: string; email: string };
    currentPassword: unknown;
    newPassword: unknown;
    ip: string | undefined;
    keepSessionHash: string | undefined;
  },
): Promise<{ outcome: 'changed'; endedSessions: number } | ({ outcome: 'throttled' } & LimitState)> {
  const next = NewUserInputSchema.shape.password.safeParse(options.newPassword);
  if (!next.success) throw inputError([{ field: 'new_password', error: next.error.issues[0].message }]);
  const check = await checkCurrentPassword(deps, options.user, options.currentPassword, options.ip);
  if (check.outcome === 'throttled') return check;
  if (check.outcome === 'invalid') throw inputError([{ field: 'current_password', error: 'is incorrect' }]);
  await deps.repos.credentials.updatePasswordHash(options.user.id, await deps.passwords.hash(next.data));
  const endedSessions = await deps.sessions.destroyAllOf(options.user.id, options.keepSessionHash);
  return { outcome: 'changed', endedSessions };
}
