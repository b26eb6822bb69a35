import type {
  AuthorizationCodeRepository,
  ClientRepository,
  CredentialRepository,
  EmailTokenRepository,
  GrantRepository,
  LiveTokenRepository,
  RecoveryCodeRepository,
  TokenRepository,
  TokenRequestRepository,
  UserAccountRepository,
  UserRepository,
} from '@pfs/resource-store';

/**
 * Every repository the auth service uses, built once in dependencies.ts and reached as `deps.repos.x`.
 * Routes and use cases name the ones they need with `Pick<AuthRepositories, …>`.
 */
export interface AuthRepositories {
  users: UserRepository;
  userAccounts: UserAccountRepository;
  credentials: CredentialRepository;
  recoveryCodes: RecoveryCodeRepository;
  clients: ClientRepository;
  grants: GrantRepository;
  codes: AuthorizationCodeRepository;
  tokens: TokenRepository;
  /** The token endpoint's first read: the client with the code or refresh token the request sends. */
  tokenRequests: TokenRequestRepository;
  liveTokens: LiveTokenRepository;
  emailTokens: EmailTokenRepository;
}
