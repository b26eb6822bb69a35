import { warnAboutDevelopmentSecrets } from '@pfs/config';
import { storeStartup } from '@pfs/http';
import { ExportJobQueue, openExportJobQueue } from '@pfs/jobs';
import type { Logger } from '@pfs/logger';
import { ResourceApi } from '@pfs/resource-api';
import { closeRedis, openRedis, Redis, redisOptionsOf } from '@pfs/redis';
import {
  databaseTimeouts,
  openDatabase,
  resourceEntities,
  resourceMigrations,
  StoreHealth,
  storeHealth,
  UserRepository,
  LiveTokenRepository,
} from '@pfs/resource-store';
import { createStorage, ObjectStorage } from '@pfs/storage';
import type { DataSource } from 'typeorm';
import { ApiConfig, apiConfigShape } from './config';
import { RequestGate } from './middleware/request-gate';
import { UserProfileCache } from './modules/me/user-profile-cache';
import { RateBook } from './modules/currencies/rate-book';

export interface ApiDependencies {
  config: ApiConfig;
  logger: Logger;
  dataSource: DataSource;
  /** The health probes and pool counters of the database, for /health and the metrics. */
  storeHealth: StoreHealth;
  redis: Redis;
  users: UserRepository;
  /** Live tokens, for re-warming Redis's introspection records when Redis misses one. */
  liveTokens: LiveTokenRepository;
  /** The conventions layer: schemas, sync tokens, responses (docs/conventions.md). */
  resourceApi: ResourceApi;
  /** Authentication and rate limiting in one Redis round trip. */
  gate: RequestGate;
  /** The cached `/me` representation; every write of a users row calls its `invalidate` after commit. */
  profileCache: UserProfileCache;
  /** EUR reference rates in memory (imported from the shipped ECB history on first start). */
  rates: RateBook;
  /** Producer of export jobs (docs/exports.md). */
  exportQueue: ExportJobQueue;
  /** Where export files are stored; the API streams them for the fs driver's links. */
  storage: ObjectStorage;
  close(): Promise<void>;
}

/** Connects to Postgres and Redis (failing fast with the reason), migrates the resource schema, wires repositories. */
export async function createApiDependencies(config: ApiConfig, logger: Logger): Promise<ApiDependencies> {
  warnAboutDevelopmentSecrets(apiConfigShape, config, (message) => logger.warn(message));
  const stores = storeStartup(config.STARTUP_RETRY_SECONDS, (message) => logger.warn(message));
  const dataSource = await stores.postgres(() =>
    openDatabase({
      url: config.DATABASE_URL,
      timeouts: databaseTimeouts(config),
      migrationSets: [resourceMigrations],
      entities: resourceEntities,
      applicationName: 'pfs-api',
      onMigrated: (applied) => logger.info({ applied }, 'migrations applied'),
    }),
  );
  const rates = await new RateBook(dataSource, logger).load({ warm: config.NODE_ENV !== 'test' });
  // Auto-pipelined: the gate checks of requests that arrive together share one Redis write and read.
  const redis = await stores.redis(
    () => openRedis({ ...redisOptionsOf(config), autoPipelining: true }),
    dataSource,
  );
  const exportQueue = openExportJobQueue(config);
  return {
    config,
    logger,
    dataSource,
    storeHealth: storeHealth(dataSource, [resourceMigrations]),
    redis,
    users: new UserRepository(dataSource),
    liveTokens: new LiveTokenRepository(dataSource),
    rates,
    resourceApi: new ResourceApi({ baseUrl: config.BASE_URL, syncSecret: config.SYNC_TOKEN_SECRET, redis }),
    gate: new RequestGate(redis, {
      keyPrefix: config.REDIS_KEY_PREFIX,
      limit: config.RATE_LIMIT_LIMIT,
      windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    }),
    profileCache: new UserProfileCache(redis),
    exportQueue,
    storage: createStorage(config),
    async close() {
      await exportQueue.close();
      await closeRedis(redis);
      if (dataSource.isInitialized) await dataSource.destroy();
    },
  };
}
