import { createRedisClient, Redis, redisAddressOf } from '@pfs/redis';
import { createDataSource, DatabaseTimeouts, resourceEntities } from '@pfs/resource-store';
import { FsStorage, ObjectStorage } from '@pfs/storage';
import { testLogger } from '@pfs/testing';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { loadWorkerConfig } from '../../src/config';
import { workerRepositories } from '../../src/dependencies';
import type { Mailer } from '@pfs/mail';
import { createUserSlots } from '../../src/delivery/user-slots';
import type { PipelineDependencies } from '../../src/use-cases/pipeline-dependencies';

export const LINK_SECRET = 'test-export-link-secret';

export interface TestPipeline {
  deps: PipelineDependencies;
  dataSource: DataSource;
  redis: Redis;
  storageDir: string;
  close(): Promise<void>;
}

/** The pipeline over the test run's real Postgres and Redis, with the fs driver in a temp dir (or a given storage). */
export async function createTestPipeline(
  options: {
    storage?: ObjectStorage;
    mailer?: Mailer;
    userConcurrency?: number;
    timeouts?: DatabaseTimeouts;
  } = {},
): Promise<TestPipeline> {
  const dataSource = createDataSource({
    url: process.env.DATABASE_URL!,
    poolSize: 4,
    entities: resourceEntities,
    timeouts: options.timeouts,
  });
  await dataSource.initialize();
  const redis = createRedisClient({
    ...redisAddressOf(loadWorkerConfig()),
    keyPrefix: process.env.REDIS_KEY_PREFIX!,
    lazyConnect: false,
  });
  const storageDir = await mkdtemp(join(tmpdir(), 'pfs-export-test-'));
  const deps: PipelineDependencies = {
    logger: testLogger(),
    repos: workerRepositories(dataSource),
    storage:
      options.storage ??
      new FsStorage({
        root: storageDir,
        publicBaseUrl: 'http://127.0.0.1:3000/export-files',
        linkSecret: LINK_SECRET,
      }),
    slots: createUserSlots(redis, options.userConcurrency ?? 1),
    mailer: options.mailer,
    ttlSeconds: 3600,
  };
  return {
    deps,
    dataSource,
    redis,
    storageDir,
    async close() {
      redis.disconnect();
      await dataSource.destroy();
      await rm(storageDir, { recursive: true, force: true });
    },
  };
}
