import type { TokenRepository } from '../repositories/token.repository';
import type { TokenIntrospectionStore } from '../token-introspection.store';

/**
 * Redis keeps nothing on disk in our deployments, so after a Redis restart the introspection records of
 * live tokens are gone and every client would get 401. At start-up the auth service writes them again from
 * Postgres, the source of truth (revoked and expired tokens are not restored). Returns how many it wrote.
 */
export async function restoreIntrospectionRecords(deps: {
  tokens: TokenRepository;
  introspection: TokenIntrospectionStore;
}): Promise<number> {
  const live = await deps.tokens.listLiveForIntrospection();
  for (const token of live) {
    if (token.kind === 'personal') {
      await deps.introspection.putPersonalToken(token.tokenHash, {
        userId: token.userId,
        tokenId: token.id,
        scope: token.scope,
      });
    } else if (token.clientId && token.grantId && token.expiresAt) {
      await deps.introspection.putAccessToken(token.tokenHash, {
        userId: token.userId,
        clientId: token.clientId,
        scope: token.scope,
        grantId: token.grantId,
        expiresAt: token.expiresAt,
      });
    }
  }
  return live.length;
}
