import type { Logger } from '@pfs/logger';
import { closeRedis, connectRedis, createRedisClient, Redis } from '@pfs/redis';
import {
  createDataSource,
  ensureDatabase,
  resourceEntities,
  resourceMigrations,
  runMigrations,
  UserRepository,
} from '@pfs/resource-store';
import type { DataSource } from 'typeorm';
import type { ApiConfig } from './config';

export interface ApiDependencies {
  config: ApiConfig;
  logger: Logger;
  dataSource: DataSource;
  redis: Redis;
  users: UserRepository;
  close(): Promise<void>;
}

/** Connects to Postgres and Redis (failing fast with the reason), migrates the resource schema, wires repositories. */
export async function createApiDependencies(config: ApiConfig, logger: Logger): Promise<ApiDependencies> {
  await ensureDatabase(config.DATABASE_URL);
  const applied = await runMigrations(config.DATABASE_URL, [resourceMigrations]);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  const dataSource = createDataSource({
    url: config.DATABASE_URL,
    entities: resourceEntities,
    applicationName: 'pfs-api',
  });
  await dataSource.initialize();
  const redis = createRedisClient({ url: config.REDIS_URL, keyPrefix: config.REDIS_KEY_PREFIX });
  try {
    await connectRedis(redis);
  } catch (error) {
    await dataSource.destroy();
    redis.disconnect();
    throw new Error(`cannot reach Redis: ${(error as Error).message}`, { cause: error });
  }
  return {
    config,
    logger,
    dataSource,
    redis,
    users: new UserRepository(dataSource),
    async close() {
      await closeRedis(redis);
      if (dataSource.isInitialized) await dataSource.destroy();
    },
  };
}
