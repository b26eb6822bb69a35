import type { Logger } from '@pfs/logger';
import { closeRedis, connectRedis, createRedisClient, Redis } from '@pfs/redis';
import {
  createDataSource,
  ensureDatabase,
  ExportRepository,
  NotificationRepository,
  PushTokenRepository,
  resourceEntities,
  resourceMigrations,
  runMigrations,
  UserRepository,
} from '@pfs/resource-store';
import { createStorage } from '@pfs/storage';
import type { WorkerConfig } from './config';
import { createMailer } from './delivery/mailer';
import { createUserSlots } from './delivery/user-slots';
import type { PipelineDependencies } from './use-cases/pipeline-dependencies';

export interface WorkerDependencies extends PipelineDependencies {
  config: WorkerConfig;
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
  const mailer = createMailer(config.SMTP_URL, config.SMTP_FROM);
  return {
    config,
    logger,
    dataSource,
    redis,
    storage: createStorage(config),
    exports: new ExportRepository(dataSource),
    notifications: new NotificationRepository(dataSource),
    pushTokens: new PushTokenRepository(dataSource),
    users: new UserRepository(dataSource),
    slots: createUserSlots(redis, config.EXPORT_USER_CONCURRENCY),
    mailer,
    ttlSeconds: config.EXPORT_TTL_SECONDS,
    async close() {
      mailer?.close();
      await closeRedis(redis);
      if (dataSource.isInitialized) await dataSource.destroy();
    },
  };
}
