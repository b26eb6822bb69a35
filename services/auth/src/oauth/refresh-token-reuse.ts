import type { TokenIntrospectionStore } from '../token-introspection.store';
import { revokeGrants } from '../use-cases/revoke-grants.use-case';
import type { RefreshTokenState, TokenRecord } from '@pfs/resource-store';
import type { AuthRepositories } from '../auth-repositories';

interface ReuseDependencies {
  repos: Pick<AuthRepositories, 'grants' | 'tokens'>;
  introspection: TokenIntrospectionStore;
  refreshReuseGraceSeconds: number;
}

/**
 * Refresh-token rotation with reuse detection (OAuth 2.0 Security BCP §4.14.2). Each refresh returns a new
 * refresh token and retires the old one. A retired token presented again means two parties hold it, so the
 * whole grant is revoked (the legitimate client recovers by asking the user again) — unless it comes back
 * within a few seconds of its rotation, which is what a client retrying after a lost response looks like.
 * Returns the token record when it may be used, undefined otherwise.
 */
export async function findUsableRefreshToken(
  deps: ReuseDependencies,
  tokenHash: string,
  /** The token's state when this request has read it already (with its client), else read here. */
  known?: { state: RefreshTokenState | undefined },
): Promise<TokenRecord | undefined> {
  // The token and its grant's state in one read.
  const record = known ? known.state : await deps.repos.tokens.findRefreshWithGrant(tokenHash);
  if (!record || !record.grantId || !record.grantActive) return undefined;
  if (!record.revokedAt) return record;
  if (!record.rotatedAt) return undefined;
  const ageSeconds = (Date.now() - record.rotatedAt.getTime()) / 1000;
  if (ageSeconds <= deps.refreshReuseGraceSeconds) return record;
  await revokeGrants(deps, [record.grantId]);
  return undefined;
}
