import { generateToken, hashToken } from '@pfs/contracts';
import { inputError } from '@pfs/errors';
import type { EmailTokenPurpose } from '@pfs/resource-store';
import type { AuthRepositories } from '../auth-repositories';
import type { Mailer } from '@pfs/mail';
import type { PasswordHasher } from '../password-hasher';
import { NewUserInputSchema } from './create-user.use-case';
import { AccountRevocationDependencies, revokeEverythingOf } from './revoke-grants.use-case';

/** A verification link works for a day; a reset link for 30 minutes. Both work once. */
export const VERIFY_LINK_TTL_SECONDS = 24 * 3600;
export const RESET_LINK_TTL_SECONDS = 30 * 60;

export interface AccountMailDependencies {
  repos: Pick<AuthRepositories, 'users' | 'credentials' | 'emailTokens'>;
  mailer: Mailer | undefined;
  /** The public URL of the auth service: the links point at its pages. */
  authUrl: string;
}

/** Stores a new single-use link (its hash) and mails it; the token itself exists only in the mail. */
async function mailLink(
  deps: AccountMailDependencies & { mailer: Mailer },
  user: { id: string; email: string },
  link: { purpose: EmailTokenPurpose; path: string; ttlSeconds: number },
  mail: (url: string) => { subject: string; text: string },
): Promise<void> {
  const token = generateToken();
  await deps.repos.emailTokens.issue({
    tokenHash: hashToken(token),
    userId: user.id,
    purpose: link.purpose,
    email: user.email,
    expiresAt: new Date(Date.now() + link.ttlSeconds * 1000),
  });
  const url = `${deps.authUrl.replace(/\/$/, '')}${link.path}?token=${token}`;
  await deps.mailer.send({ to: user.email, ...mail(url) });
}

/** Mails the link that verifies the user's address; false when the server sends no mail. */
export async function sendVerificationLink(
  deps: AccountMailDependencies,
  user: { id: string; email: string },
): Promise<boolean> {
  const { mailer } = deps;
  if (!mailer) return false;
  await mailLink(
    { ...deps, mailer },
    user,
    { purpose: 'verify-email', path: '/verify-email', ttlSeconds: VERIFY_LINK_TTL_SECONDS },
    (url) => ({
      subject: 'Confirm your email address for PFS',
      text: `Open this link to confirm ${user.email} for your PFS account:\n\n${url}\n\nIt works once, for 24 hours. If you did not create a PFS account, ignore this mail.\n`,
    }),
  );
  return true;
}

/** Uses a verification link up; true when it verified the address it was sent to. */
export async function verifyEmail(deps: AccountMailDependencies, token: unknown): Promise<boolean> {
  if (typeof token !== 'string' || !token) return false;
  const owner = await deps.repos.emailTokens.consume(hashToken(token), 'verify-email');
  if (!owner) return false;
  const user = await deps.repos.users.findById(owner.userId);
  // The address changed since the mail went out: the link proves nothing about the new one.
  if (!user || user.email.toLowerCase() !== owner.email.toLowerCase()) return false;
  await deps.repos.credentials.markEmailVerified(owner.userId);
  return true;
}

/**
 * Mails a reset link when the address belongs to an account that can sign in; does nothing otherwise. The
 * caller answers the same before this runs, so neither the answer nor its timing tells whether it exists.
 */
export async function sendPasswordResetLink(deps: AccountMailDependencies, email: string): Promise<boolean> {
  const { mailer } = deps;
  const user = mailer && email ? await deps.repos.users.findByEmail(email) : undefined;
  if (!mailer || !user || !(await deps.repos.credentials.findByUserId(user.id))) return false;
  await mailLink(
    { ...deps, mailer },
    user,
    { purpose: 'reset-password', path: '/reset-password', ttlSeconds: RESET_LINK_TTL_SECONDS },
    (url) => ({
      subject: 'Reset your PFS password',
      text: `Someone asked to reset the password of the PFS account of ${user.email}. To choose a new one, open:\n\n${url}\n\nThe link works once, for 30 minutes. Resetting signs you out everywhere and ends the access of every application. If you did not ask, ignore this mail: your password stays as it is.\n`,
    }),
  );
  return true;
}

/** True when the reset link is live (the form is shown); it stays unused until the form is sent. */
export async function isLiveResetLink(deps: AccountMailDependencies, token: unknown): Promise<boolean> {
  if (typeof token !== 'string' || !token) return false;
  return !!(await deps.repos.emailTokens.peek(hashToken(token), 'reset-password'));
}

export type PasswordResetDependencies = AccountMailDependencies &
  AccountRevocationDependencies & { passwords: PasswordHasher };

/**
 * Sets a new password from a reset link: the link (and every other reset link of the user) is used up,
 * the address counts as verified (the user read its mail), and every session, grant and token ends.
 * Throws an input error naming `password` or `token`.
 */
export async function resetPassword(
  deps: PasswordResetDependencies,
  input: { token: unknown; password: unknown },
): Promise<{ userId: string }> {
  const password = NewUserInputSchema.shape.password.safeParse(input.password);
  if (!password.success) throw inputError([{ field: 'password', error: password.error.issues[0].message }]);
  const owner =
    typeof input.token === 'string' && input.token
      ? await deps.repos.emailTokens.consume(hashToken(input.token), 'reset-password')
      : undefined;
  if (!owner) throw inputError([{ field: 'token', error: 'is used up or expired; ask for a new link' }]);
  const passwordHash = await deps.passwords.hash(password.data);
  if (!(await deps.repos.credentials.updatePasswordHash(owner.userId, passwordHash)))
    throw inputError([{ field: 'token', error: 'is used up or expired; ask for a new link' }]);
  await deps.repos.emailTokens.expireAll(owner.userId, 'reset-password');
  await deps.repos.credentials.markEmailVerified(owner.userId);
  await revokeEverythingOf(deps, owner.userId);
  return { userId: owner.userId };
}
