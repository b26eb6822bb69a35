import OAuth2Server from '@node-oauth/oauth2-server';
import type { AuthConfig } from '../config';
import { createOAuthModel, OAuthModelDependencies, TokenRequestFacts } from './oauth-model';

/** The model the token route gives the library for one request, with what that request's checks read. */
export type OAuthModelFor = (facts: TokenRequestFacts) => ReturnType<typeof createOAuthModel>;

/** The library's server facade, configured from our config, and the per-request model of the token route. */
export function createOAuthServer(
  config: AuthConfig,
  deps: Omit<OAuthModelDependencies, 'refreshReuseGraceSeconds'>,
): { server: OAuth2Server; modelFor: OAuthModelFor } {
  const modelDependencies = { ...deps, refreshReuseGraceSeconds: config.AUTH_REFRESH_REUSE_GRACE_SECONDS };
  const server = new OAuth2Server({
    model: createOAuthModel(modelDependencies),
    accessTokenLifetime: config.ACCESS_TOKEN_TTL_SECONDS,
    authorizationCodeLifetime: config.AUTH_CODE_TTL_SECONDS,
    // The spec: a refresh token stays valid until revoked. Expiry is not enforced (the model stores none).
    refreshTokenLifetime: 10 * 365 * 86_400,
    alwaysIssueNewRefreshToken: true,
    allowEmptyState: true,
    requireClientAuthentication: { authorization_code: true, refresh_token: true },
  });
  return { server, modelFor: (facts) => createOAuthModel(modelDependencies, facts) };
}
