import type { TokenIntrospectionStore } from '../token-introspection.store';
import type { AuthRepositories } from '../auth-repositories';
import type { SessionStore } from '../web/session.store';

export interface GrantRevocationDependencies {
  repos: Pick<AuthRepositories, 'grants' | 'tokens'>;
  introspection: TokenIntrospectionStore;
}

/**
 * Ends grants: the grant and every token of it are revoked in Postgres, and the introspection records go
 * from Redis, so the resource API refuses the access tokens at once and refreshing gives invalid_grant.
 */
export async function revokeGrants(deps: GrantRevocationDependencies, grantIds: string[]): Promise<void> {
  for (const grantId of new Set(grantIds)) {
    await deps.repos.grants.revoke(grantId);
    const tokenHashes = await deps.repos.tokens.revokeByGrant(grantId);
    await deps.introspection.removeGrant(grantId, tokenHashes);
  }
}

/** "Revoke access" in account settings: every grant of this user to this application. */
export async function revokeClientAccess(
  deps: GrantRevocationDependencies,
  options: { userId: string; clientId: string },
): Promise<number> {
  const grantIds = await deps.repos.grants.findActiveIds(options.userId, options.clientId);
  await revokeGrants(deps, grantIds);
  return grantIds.length;
}

/** What ending every way into an account needs. */
export interface AccountRevocationDependencies {
  repos: Pick<AuthRepositories, 'tokens'>;
  introspection: TokenIntrospectionStore;
  sessions: SessionStore;
}

/**
 * Ends every way into the account (a password reset, a deletion): every grant and token, personal ones
 * included, is revoked in Postgres and its introspection record leaves Redis, and every sign-in session of
 * the pages ends. Returns how many tokens and sessions ended.
 */
export async function revokeEverythingOf(
  deps: AccountRevocationDependencies,
  userId: string,
): Promise<{ tokens: number; sessions: number }> {
  const revoked = await deps.repos.tokens.revokeAllOf({ userId });
  for (const grantId of revoked.grantIds) await deps.introspection.removeGrant(grantId);
  for (const tokenHash of revoked.tokenHashes) await deps.introspection.remove(tokenHash);
  const sessions = await deps.sessions.destroyAllOf(userId);
  return { tokens: revoked.tokenHashes.length, sessions };
}
