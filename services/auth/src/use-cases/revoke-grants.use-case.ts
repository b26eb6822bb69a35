import type { GrantRepository } from '../repositories/grant.repository';
import type { TokenRepository } from '../repositories/token.repository';
import type { TokenIntrospectionStore } from '../token-introspection.store';

export interface GrantRevocationDependencies {
  grants: GrantRepository;
  tokens: TokenRepository;
  introspection: TokenIntrospectionStore;
}

/**
 * Ends grants: the grant and every token of it are revoked in Postgres, and the introspection records go
 * from Redis, so the resource API refuses the access tokens at once and refreshing gives invalid_grant.
 */
export async function revokeGrants(deps: GrantRevocationDependencies, grantIds: string[]): Promise<void> {
  for (const grantId of new Set(grantIds)) {
    await deps.grants.revoke(grantId);
    const tokenHashes = await deps.tokens.revokeByGrant(grantId);
    await deps.introspection.removeGrant(grantId, tokenHashes);
  }
}

/** "Revoke access" in account settings: every grant of this user to this application. */
export async function revokeClientAccess(
  deps: GrantRevocationDependencies,
  options: { userId: string; clientId: string },
): Promise<number> {
  const grantIds = await deps.grants.findActiveIds(options.userId, options.clientId);
  await revokeGrants(deps, grantIds);
  return grantIds.length;
}
