import { accessTokenKey, grantTokensKey } from '@pfs/contracts';
import { deleteKeys, type Redis } from '@pfs/redis';
import type { CliRepositories } from '../dependencies';

export interface RevokeTokensDependencies {
  repos: Pick<CliRepositories, 'tokens'>;
  redis: Redis;
}

/** How many tokens and grants a revocation ended, as the commands print it. */
export interface RevocationCounts {
  revoked_tokens: number;
  revoked_grants: number;
}

/**
 * Revokes the live tokens and grants of a user or of a client in Postgres, then deletes their introspection
 * records from Redis (tokens) and grant sets, so the API refuses them at once.
 */
export async function revokeTokens(
  deps: RevokeTokensDependencies,
  owner: { userId: string } | { clientId: string },
): Promise<RevocationCounts> {
  const revoked = await deps.repos.tokens.revokeAllOf(owner);
  const keys = [...revoked.tokenHashes.map(accessTokenKey), ...revoked.grantIds.map(grantTokensKey)];
  await deleteKeys(deps.redis, keys);
  return { revoked_tokens: revoked.tokenHashes.length, revoked_grants: revoked.grantIds.length };
}
