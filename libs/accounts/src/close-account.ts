import { accessTokenKey, grantTokensKey, sessionKey, userSessionsKey } from '@pfs/contracts';
import { deleteKeys, type Redis } from '@pfs/redis';
import type { CredentialRepository, TokenRepository } from '@pfs/resource-store';

export interface RevokeAccessDependencies {
  repos: { tokens: TokenRepository };
  redis: Redis;
}

/**
 * Ends every way into the account but the password: every live token and grant of the user is revoked in
 * Postgres, their introspection records and grant sets leave Redis (the API refuses them at once), and every
 * sign-in session of the auth pages ends with its index. Returns how many tokens, grants and sessions ended.
 */
export async function revokeAllAccess(
  deps: RevokeAccessDependencies,
  userId: string,
): Promise<{ tokens: number; grants: number; sessions: number }> {
  const revoked = await deps.repos.tokens.revokeAllOf({ userId });
  const sessions = await deps.redis.smembers(userSessionsKey(userId));
  const keys = [
    ...revoked.tokenHashes.map(accessTokenKey),
    ...revoked.grantIds.map(grantTokensKey),
    ...sessions.map(sessionKey),
    userSessionsKey(userId),
  ];
  await deleteKeys(deps.redis, keys);
  return { tokens: revoked.tokenHashes.length, grants: revoked.grantIds.length, sessions: sessions.length };
}

export interface CloseAccountDependencies extends RevokeAccessDependencies {
  repos: { tokens: TokenRepository; credentials: CredentialRepository };
}

/**
 * The first, immediate step of deleting an account (the deletion job does the rest): every token and session
 * ends, and the password, two-factor secret and recovery codes go, so nobody can sign in again meanwhile.
 */
export async function closeAccount(deps: CloseAccountDependencies, userId: string): Promise<void> {
  await revokeAllAccess(deps, userId);
  await deps.repos.credentials.remove(userId);
}
