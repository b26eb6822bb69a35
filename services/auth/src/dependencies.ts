import type OAuth2Server from '@node-oauth/oauth2-server';
import { warnAboutDevelopmentSecrets } from '@pfs/config';
import { storeStartup } from '@pfs/http';
import type { Logger } from '@pfs/logger';
import { closeRedis, openRedis, Redis, redisTimeouts } from '@pfs/redis';
import {
  databaseTimeouts,
  openDatabase,
  resourceEntities,
  resourceMigrations,
  UserRepository,
} from '@pfs/resource-store';
import type { DataSource } from 'typeorm';
import { AuthConfig, authConfigShape } from './config';
import { authEntities } from './entities';
import { authMigrations } from './migrations';
import { createOAuthServer } from './oauth/oauth-server';
import { PasswordHasher } from './password-hasher';
import { AuthorizationCodeRepository } from './repositories/authorization-code.repository';
import { ClientRepository } from './repositories/client.repository';
import { CredentialRepository } from './repositories/credential.repository';
import { GrantRepository } from './repositories/grant.repository';
import { RecoveryCodeRepository } from './repositories/recovery-code.repository';
import { TokenRepository } from './repositories/token.repository';
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
  dataSource: DataSource;
  redis: Redis;
  oauth: OAuth2Server;
  users: UserRepository;
  credentials: CredentialRepository;
  clients: ClientRepository;
  grants: GrantRepository;
  codes: AuthorizationCodeRepository;
  tokens: TokenRepository;
  recoveryCodes: RecoveryCodeRepository;
  introspection: TokenIntrospectionStore;
  sessions: SessionStore;
  passwords: PasswordHasher;
  otpCipher: OtpSecretCipher;
  limiter: RateLimiter;
  close(): Promise<void>;
}

/** What checking a second factor needs, from the service's dependencies. */
export function secondFactorDependencies(deps: AuthDependencies): SecondFactorDependencies {
  return {
    credentials: deps.credentials,
    recoveryCodes: deps.recoveryCodes,
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
  const stores = storeStartup(config.STARTUP_RETRY_SECONDS, (message) => logger.warn(message));
  const dataSource = await stores.postgres(() =>
    openDatabase({
      url: config.DATABASE_URL,
      timeouts: databaseTimeouts(config),
      migrationSets: allMigrationSets,
      entities: [...resourceEntities, ...authEntities],
      applicationName: 'pfs-auth',
      onMigrated: (applied) => logger.info({ applied }, 'migrations applied'),
    }),
  );
  const redis = await stores
    .redis(() =>
      openRedis({ url: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX, ...redisTimeouts(config) }),
    )
    .catch(async (error) => {
      await dataSource.destroy();
      throw error;
    });
  const clients = new ClientRepository(dataSource);
  const grants = new GrantRepository(dataSource);
  const codes = new AuthorizationCodeRepository(dataSource);
  const tokens = new TokenRepository(dataSource);
  const introspection = new TokenIntrospectionStore(redis);
  return {
    config,
    logger,
    dataSource,
    redis,
    oauth: createOAuthServer(config, { clients, grants, codes, tokens, introspection }),
    users: new UserRepository(dataSource),
    credentials: new CredentialRepository(dataSource),
    clients,
    grants,
    codes,
    tokens,
    recoveryCodes: new RecoveryCodeRepository(dataSource),
    introspection,
    sessions: new SessionStore(redis, config.SESSION_TTL_SECONDS),
    passwords: new PasswordHasher(),
    otpCipher: new OtpSecretCipher(config.AUTH_OTP_ENCRYPTION_KEY),
    limiter: new RateLimiter(redis, config.AUTH_RATE_LIMIT_WINDOW_SECONDS),
    async close() {
      await closeRedis(redis);
      if (dataSource.isInitialized) await dataSource.destroy();
    },
  };
}
