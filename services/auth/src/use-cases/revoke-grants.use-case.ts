import type { TokenIntrospectionStore } from '../token-introspection.store';
import type { AuthRepositories } from '../auth-repositories';

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
