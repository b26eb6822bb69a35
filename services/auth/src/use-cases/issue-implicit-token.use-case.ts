import { generateToken, hashToken } from '@pfs/contracts';
import type { TokenIntrospectionStore } from '../token-introspection.store';
import type { AuthRepositories } from '../auth-repositories';

export interface ImplicitTokenOptions {
  userId: string;
  clientId: string;
  grantId: string;
  scope: string;
  ttlSeconds: number;
}

/**
 * The implicit grant (RFC 6749 §4.2): an access token straight from the authorization step, and no refresh
 * token, since the client cannot keep one secret. The library has no implicit grant, so this is ours.
 */
export async function issueImplicitToken(
  deps: { repos: Pick<AuthRepositories, 'tokens'>; introspection: TokenIntrospectionStore },
  options: ImplicitTokenOptions,
): Promise<{ accessToken: string; expiresIn: number }> {
  const accessToken = generateToken();
  const tokenHash = hashToken(accessToken);
  const expiresAt = new Date(Date.now() + options.ttlSeconds * 1000);
  await deps.repos.tokens.create([
    {
      tokenHash,
      kind: 'access',
      userId: options.userId,
      clientId: options.clientId,
      grantId: options.grantId,
      authorizationCodeHash: null,
      name: null,
      scope: options.scope,
      expiresAt,
    },
  ]);
  await deps.introspection.putAccessToken(tokenHash, { ...options, expiresAt });
  return { accessToken, expiresIn: options.ttlSeconds };
}
