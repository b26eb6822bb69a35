/** The auth service's tables: entities, migrations and repositories (sign-in secrets and OAuth state). */
export { authEntities } from './entities';
export type { TokenKind } from './entities';
export { authMigrations } from './migrations';
export { AuthorizationCodeRepository } from './repositories/authorization-code.repository';
export type {
  AuthorizationCodeRecord,
  CodeExchangeState,
} from './repositories/authorization-code.repository';
export { ClientRepository } from './repositories/client.repository';
export type { NewOAuthClient, OAuthClientRecord, RegisteredClient } from './repositories/client.repository';
export { CredentialRepository } from './repositories/credential.repository';
export type { Credential, NewCredential } from './repositories/credential.repository';
export { EmailTokenRepository } from './repositories/email-token.repository';
export type { EmailTokenOwner, EmailTokenPurpose } from './repositories/email-token.repository';
export { GrantRepository } from './repositories/grant.repository';
export type { ConnectedApp, Grant } from './repositories/grant.repository';
export { LiveTokenRepository } from './repositories/live-token.repository';
export type { LiveToken } from './repositories/live-token.repository';
export { RecoveryCodeRepository } from './repositories/recovery-code.repository';
export { TokenRequestRepository } from './repositories/token-request.repository';
export type { TokenRequestLookup, TokenRequestState } from './repositories/token-request.repository';
export { TokenRepository } from './repositories/token.repository';
export type {
  NewToken,
  RefreshTokenState,
  RevokedTokens,
  TokenRecord,
} from './repositories/token.repository';
export type { RotatedPair } from './repositories/token-rotation';
export type { CodeExchangeTokens } from './repositories/code-exchange-tokens';
export { UserAccountRepository } from './repositories/user-account.repository';
export type { UserAccountSummary } from './repositories/user-account.repository';
