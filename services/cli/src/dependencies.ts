import { allMigrationSets } from '@pfs/auth';
import { closeRedis, openRedis, Redis, redisAddressOf } from '@pfs/redis';
import {
  authEntities,
  ClientRepository,
  CredentialRepository,
  CurrencyRateRepository,
  openDatabase,
  resourceEntities,
  TokenRepository,
  UserAccountRepository,
  UserRepository,
} from '@pfs/resource-store';
import type { CliConfig } from './cli-context';

/** The repositories the operator commands use, built once per command run. */
export interface CliRepositories {
  users: UserRepository;
  userAccounts: UserAccountRepository;
  credentials: CredentialRepository;
  clients: ClientRepository;
  tokens: TokenRepository;
  currencyRates: CurrencyRateRepository;
}

export interface CliDependencies {
  repos: CliRepositories;
  /** Redis, opened on first use (most commands never need it) and closed with the rest. */
  redis(): Promise<Redis>;
}

/**
 * Opens a migrated database (the resource and auth schemas, as the auth service does) for one command,
 * builds its repositories, and always closes everything it opened.
 */
export async function withCliDependencies<T>(
  config: CliConfig,
  run: (deps: CliDependencies) => Promise<T>,
): Promise<T> {
  const dataSource = await openDatabase({
    url: config.DATABASE_URL,
    directUrl: config.DATABASE_DIRECT_URL,
    migrationSets: allMigrationSets,
    entities: [...resourceEntities, ...authEntities],
    applicationName: 'pfs-cli',
  });
  let redis: Promise<Redis> | undefined;
  const deps: CliDependencies = {
    repos: {
      users: new UserRepository(dataSource),
      userAccounts: new UserAccountRepository(dataSource),
      credentials: new CredentialRepository(dataSource),
      clients: new ClientRepository(dataSource),
      tokens: new TokenRepository(dataSource),
      currencyRates: new CurrencyRateRepository(dataSource),
    },
    redis: () => (redis ??= openRedis({ ...redisAddressOf(config), keyPrefix: config.REDIS_KEY_PREFIX })),
  };
  try {
    return await run(deps);
  } finally {
    if (redis) await closeRedis(await redis);
    await dataSource.destroy();
  }
}
