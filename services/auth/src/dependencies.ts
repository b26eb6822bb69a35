import type OAuth2Server from '@node-oauth/oauth2-server';
import { warnAboutDevelopmentSecrets } from '@pfs/config';
import { ListVersionSignals } from '@pfs/contracts';
import { serviceStoreStartup } from '@pfs/http';
import { type Logger, type TraceContext, tracedLogger } from '@pfs/logger';
import {
  AccountDeletionQueue,
  ExportJobQueue,
  openAccountDeletionQueue,
  openExportJobQueue,
} from '@pfs/jobs';
import { closeRedis, openRedis, Redis, redisOptionsOf } from '@pfs/redis';
import {
  AuthorizationCodeRepository,
  authEntities,
  authMigrations,
  ClientRepository,
  CredentialRepository,
  EmailTokenRepository,
  ExportRepository,
  GrantRepository,
  LiveTokenRepository,
  openServiceDatabase,
  RecoveryCodeRepository,
  resourceEntities,
  resourceMigrations,
  StoreHealth,
  storeHealth,
  TokenRepository,
  TokenRequestRepository,
  UserAccountRepository,
  UserRepository,
  UserStore,
} from '@pfs/resource-store';
import type { DataSource } from 'typeorm';
import type { AuthRepositories } from './auth-repositories';
import { AuthConfig, authConfigShape } from './config';
import { createMailer, type Mailer } from '@pfs/mail';
import { createOAuthServer, OAuthModelFor } from './oauth/oauth-server';
import { PasswordHasher } from './password-hasher';
import { OtpSecretCipher } from './security/otp-secret.cipher';
import type { PasswordAttemptLimits } from './security/password-attempts';
import { RateLimiter } from './security/rate-limiter';
import { TokenIntrospectionStore } from './token-introspection.store';
import type { SecondFactorDependencies } from './use-cases/verify-second-factor.use-case';
import { SessionStore } from './web/session.store';

/** Everything the auth app needs, built once at boot from config; tests build the same thing. */
export interface AuthDependencies {
  config: AuthConfig;
  logger: Logger;
  /** Only to close it, and for tests that look at rows; routes and use cases go through `repos`. */
  dataSource: DataSource;
  /** The health probes and pool counters of the database, for /health and the metrics. */
  storeHealth: StoreHealth;
  redis: Redis;
  oauth: OAuth2Server;
  /** The model the token route gives the library for one request (see TokenRequestFacts). */
  oauthModelFor: OAuthModelFor;
  repos: AuthRepositories;
  introspection: TokenIntrospectionStore;
  sessions: SessionStore;
  passwords: PasswordHasher;
  otpCipher: OtpSecretCipher;
  limiter: RateLimiter;
  /** Account mail (verification, reset); undefined when SMTP_URL is unset. */
  mailer: Mailer | undefined;
  /** The user contexts and exports of the deletion page's `user_data` export. */
  store: UserStore;
  exports: ExportRepository;
  exportJobs: ExportJobQueue;
  /** The producer of the account deletion job. */
  accountDeletions: AccountDeletionQueue;
  close(): Promise<void>;
}

/** What checking a second factor needs, from the service's dependencies. */
export function secondFactorDependencies(deps: AuthDependencies): SecondFactorDependencies {
  return {
    repos: deps.repos,
    cipher: deps.otpCipher,
    limiter: deps.limiter,
    redis: deps.redis,
    maxFailures: deps.config.AUTH_OTP_MAX_FAILURES,
  };
}

/** The limits on password checks (sign-in, turning two-factor off), from the service's dependencies. */
export function passwordAttemptLimits(deps: AuthDependencies): PasswordAttemptLimits {
  return {
    limiter: deps.limiter,
    maxFailuresPerAccount: deps.config.AUTH_SIGNIN_MAX_FAILURES_PER_ACCOUNT,
    maxFailuresPerIp: deps.config.AUTH_SIGNIN_MAX_FAILURES_PER_IP,
  };
}

export const allMigrationSets = [resourceMigrations, authMigrations];

/** Connects to Postgres and Redis (failing fast with the reason), migrates, and wires repositories. */
export async function createAuthDependencies(config: AuthConfig, logger: Logger): Promise<AuthDependencies> {
  warnAboutDevelopmentSecrets(authConfigShape, config, (message) => logger.warn(message));
  const stores = serviceStoreStartup(config, logger);
  const dataSource = await stores.postgres(() =>
    openServiceDatabase(config, logger, {
      migrationSets: allMigrationSets,
      entities: [...resourceEntities, ...authEntities],
      applicationName: 'pfs-auth',
    }),
  );
  const redis = await stores.redis(() => openRedis(redisOptionsOf(config)), dataSource);
  const repos: AuthRepositories = {
    users: new UserRepository(dataSource),
    userAccounts: new UserAccountRepository(dataSource),
    credentials: new CredentialRepository(dataSource),
    recoveryCodes: new RecoveryCodeRepository(dataSource),
    clients: new ClientRepository(dataSource),
    grants: new GrantRepository(dataSource),
    codes: new AuthorizationCodeRepository(dataSource),
    tokens: new TokenRepository(dataSource),
    tokenRequests: new TokenRequestRepository(dataSource),
    liveTokens: new LiveTokenRepository(dataSource),
    emailTokens: new EmailTokenRepository(dataSource),
  };
  const mailer = createMailer(config.SMTP_URL, config.SMTP_FROM);
  const exportJobs = openExportJobQueue(config);
  const accountDeletions = openAccountDeletionQueue(config);
  const introspection = new TokenIntrospectionStore(redis);
  const oauth = createOAuthServer(config, { repos, introspection });
  const signals = new ListVersionSignals<TraceContext>(redis, (error, userId, trace) =>
    tracedLogger(logger, trace).warn({ err: error, userId }, 'could not signal a moved list version'),
  );
  return {
    config,
    logger,
    dataSource,
    storeHealth: storeHealth(dataSource, allMigrationSets),
    redis,
    oauth: oauth.server,
    oauthModelFor: oauth.modelFor,
    repos,
    introspection,
    sessions: new SessionStore(redis, config.SESSION_TTL_SECONDS),
    passwords: new PasswordHasher(),
    otpCipher: new OtpSecretCipher(config.AUTH_OTP_ENCRYPTION_KEY),
    limiter: new RateLimiter(redis, config.AUTH_RATE_LIMIT_WINDOW_SECONDS),
    mailer,
    // The account deletion's export moves the user's list version: the API's processes drop their copy.
    store: new UserStore(dataSource, undefined, (userId, trace) => signals.moved(userId, trace)),
    exports: new ExportRepository(dataSource),
    exportJobs,
    accountDeletions,
    async close() {
      mailer?.close();
      await exportJobs.close();
      await accountDeletions.close();
      await closeRedis(redis);
      if (dataSource.isInitialized) await dataSource.destroy();
    },
  };
}
