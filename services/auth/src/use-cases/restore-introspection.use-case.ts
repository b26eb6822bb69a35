import type { TokenIntrospectionStore } from '../token-introspection.store';
import type { LiveToken } from '@pfs/resource-store';
import type { AuthRepositories } from '../auth-repositories';

/**
 * Redis keeps nothing on disk in our deployments, so after a Redis restart the introspection records of
 * live tokens are gone and every client would get 401. At start-up the auth service writes them again from
 * Postgres, the source of truth (revoked and expired tokens are not restored). Returns how many it wrote.
 */
export async function restoreIntrospectionRecords(deps: {
  repos: Pick<AuthRepositories, 'liveTokens'>;
  introspection: TokenIntrospectionStore;
}): Promise<number> {
  const live = await deps.repos.liveTokens.list();
  // Writes in concurrent batches: one connection pipelines them, instead of one round trip per token.
  for (let start = 0; start < live.length; start += BATCH_SIZE) {
    await Promise.all(
      live.slice(start, start + BATCH_SIZE).map((token) => restoreOne(deps.introspection, token)),
    );
  }
  return live.length;
}

const BATCH_SIZE = 500;

async function restoreOne(introspection: TokenIntrospectionStore, token: LiveToken): Promise<void> {
  if (token.kind === 'personal') {
    await introspection.putPersonalToken(token.tokenHash, {
      userId: token.userId,
      tokenId: token.id,
      scope: token.scope,
    });
  } else if (token.clientId && token.grantId && token.expiresAt) {
    await introspection.putAccessToken(token.tokenHash, {
      userId: token.userId,
      clientId: token.clientId,
      scope: token.scope,
      grantId: token.grantId,
      expiresAt: token.expiresAt,
    });
  }
}
