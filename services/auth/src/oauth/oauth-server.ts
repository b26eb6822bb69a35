import OAuth2Server from '@node-oauth/oauth2-server';
import type { AuthConfig } from '../config';
import { createOAuthModel, OAuthModelDependencies } from './oauth-model';

/** The library's server facade, configured from our config. */
export function createOAuthServer(
  config: AuthConfig,
  deps: Omit<OAuthModelDependencies, 'refreshReuseGraceSeconds'>,
): OAuth2Server {
  return new OAuth2Server({
    model: createOAuthModel({ ...deps, refreshReuseGraceSeconds: config.AUTH_REFRESH_REUSE_GRACE_SECONDS }),
    accessTokenLifetime: config.ACCESS_TOKEN_TTL_SECONDS,
    authorizationCodeLifetime: config.AUTH_CODE_TTL_SECONDS,
    // The spec: a refresh token stays valid until revoked. Expiry is not enforced (the model stores none).
    refreshTokenLifetime: 10 * 365 * 86_400,
    alwaysIssueNewRefreshToken: true,
    allowEmptyState: true,
    requireClientAuthentication: { authorization_code: true, refresh_token: true },
  });
}
