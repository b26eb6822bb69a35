import type { Logger } from '@pfs/logger';
import { closeRedis, connectRedis, createRedisClient, Redis } from '@pfs/redis';
import {
  createDataSource,
  ensureDatabase,
  resourceEntities,
  resourceMigrations,
  runMigrations,
} from '@pfs/resource-store';
import type { DataSource } from 'typeorm';
import type { WorkerConfig } from './config';

export interface WorkerDependencies {
  config: WorkerConfig;
  logger: Logger;
  dataSource: DataSource;
  redis: Redis;
  close(): Promise<void>;
}

export async function createWorkerDependencies(
  config: WorkerConfig,
  logger: Logger,
): Promise<WorkerDependencies> {
  await ensureDatabase(config.DATABASE_URL);
  const applied = await runMigrations(config.DATABASE_URL, [resourceMigrations]);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  const dataSource = createDataSource({
    url: config.DATABASE_URL,
    entities: resourceEntities,
    applicationName: 'pfs-export-worker',
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
    async close() {
      await closeRedis(redis);
      if (dataSource.isInitialized) await dataSource.destroy();
    },
  };
}
