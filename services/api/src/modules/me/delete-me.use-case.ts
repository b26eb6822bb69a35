import { closeAccount, CloseAccountDependencies } from '@pfs/accounts';
import { AppError } from '@pfs/errors';
import type { AccountDeletionQueue } from '@pfs/jobs';
import argon2 from 'argon2';

/** Wrong passwords `DELETE /me` allows per user in one window, so a stolen token cannot guess the password. */
export const DELETE_ME_MAX_FAILURES = 5;
export const DELETE_ME_WINDOW_SECONDS = 900;

const failuresKey = (userId: string) => `delete-me-failures:${userId}`;

export interface DeleteMeDependencies extends CloseAccountDependencies {
  accountDeletions: AccountDeletionQueue;
}

/**
 * `DELETE /me`: the token (user:rw) is not enough, the user's password is checked again (argon2, under a
 * per-user failure limit); then the deletion job is queued first (a Redis outage changes nothing) and the
 * account closes at once: every token and session ends, the password goes. The job erases the rest.
 */
export async function deleteMe(deps: DeleteMeDependencies, userId: string, password: string): Promise<void> {
  const failures = Number((await deps.redis.get(failuresKey(userId))) ?? 0);
  if (failures >= DELETE_ME_MAX_FAILURES) {
    const ttl = await deps.redis.ttl(failuresKey(userId));
    throw new AppError('RATE_LIMITED', {
      description: 'Too many wrong passwords; try again later.',
      headers: { 'Retry-After': String(ttl > 0 ? ttl : DELETE_ME_WINDOW_SECONDS) },
    });
  }
  const credential = await deps.repos.credentials.findByUserId(userId);
  const valid = credential
    ? await argon2.verify(credential.passwordHash, password).catch(() => false)
    : false;
  if (!valid) {
    await deps.redis
      .multi()
      .incr(failuresKey(userId))
      .expire(failuresKey(userId), DELETE_ME_WINDOW_SECONDS, 'NX')
      .exec();
    throw new AppError('FORBIDDEN', {
      description: 'The password is incorrect: deleting the account needs the current password.',
      fields: [{ field: 'password', error: 'is incorrect' }],
    });
  }
  await deps.redis.del(failuresKey(userId));
  await deps.accountDeletions.request(userId);
  await closeAccount(deps, userId);
}
