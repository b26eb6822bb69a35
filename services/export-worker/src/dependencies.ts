import { storeStartup } from '@pfs/http';
import type { Logger } from '@pfs/logger';
import { closeRedis, openRedis, Redis, redisTimeouts } from '@pfs/redis';
import {
  databaseTimeouts,
  ExportRepository,
  NotificationRepository,
  openDatabase,
  PushTokenRepository,
  resourceEntities,
  resourceMigrations,
  UserRepository,
} from '@pfs/resource-store';
import { createStorage } from '@pfs/storage';
import type { WorkerConfig } from './config';
import { createMailer } from './delivery/mailer';
import { createUserSlots } from './delivery/user-slots';
import { closePushProviders, createPushProviders } from './push/create-push-providers';
import { sendDuePushes } from './push/send-due-pushes.use-case';
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
  // Built first: a push misconfiguration stops the worker before it opens any connection.
  const providers = createPushProviders(config);
  const stores = storeStartup(config.STARTUP_RETRY_SECONDS, (message) => logger.warn(message));
  const dataSource = await stores.postgres(() =>
    openDatabase({
      url: config.DATABASE_URL,
      // Export cursors stream for long; pg cannot time them client-side.
      timeouts: databaseTimeouts(config, false),
      migrationSets: [resourceMigrations],
      entities: resourceEntities,
      applicationName: 'pfs-export-worker',
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
  const mailer = createMailer(config.SMTP_URL, config.SMTP_FROM);
  const pushTokens = new PushTokenRepository(dataSource);
  return {
    config,
    logger,
    dataSource,
    redis,
    storage: createStorage(config),
    exports: new ExportRepository(dataSource),
    notifications: new NotificationRepository(dataSource),
    pushTokens,
    sendPushes: () => sendDuePushes({ pushTokens, providers, logger, maxAttempts: config.PUSH_MAX_ATTEMPTS }),
    users: new UserRepository(dataSource),
    slots: createUserSlots(redis, config.EXPORT_USER_CONCURRENCY),
    mailer,
    ttlSeconds: config.EXPORT_TTL_SECONDS,
    async close() {
      mailer?.close();
      await closePushProviders(providers);
      await closeRedis(redis);
      if (dataSource.isInitialized) await dataSource.destroy();
    },
  };
}
