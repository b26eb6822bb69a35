import type { TokenIntrospectionStore } from '../token-introspection.store';
import type { LiveToken } from '@pfs/resource-store';
import type { AuthRepositories } from '../auth-repositories';

/**
 * Redis keeps nothing on disk in our deployments, so after a Redis restart the introspection records of
 * live tokens are gone and every client would get 401. At start-up the auth service writes them again from
 * Postgres, the source of truth (revoked and expired tokens are not restored). Returns how many it wrote.
 */
export async function restoreIntrospectionRecords(
  deps: {
    repos: Pick<AuthRepositories, 'liveTokens'>;
    introspection: TokenIntrospectionStore;
  },
  pageSize = PAGE_SIZE,
): Promise<number> {
  let restored = 0;
  let afterId: string | null = null;
  // Page by page (keyset on the token id): memory stays one page whatever the number of live tokens. Each
  // page's writes go concurrently, so one connection pipelines them instead of a round trip per token.
  for (;;) {
    const page = await deps.repos.liveTokens.page(afterId, pageSize);
    if (page.length === 0) return restored;
    await Promise.all(page.map((token) => restoreOne(deps.introspection, token)));
    restored += page.length;
    afterId = page[page.length - 1].id;
  }
}

const PAGE_SIZE = 1000;

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
