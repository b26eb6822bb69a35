import { createRedisClient, redisAddressOf } from '@pfs/redis';
import { testLogger } from '@pfs/testing';
import type { Worker } from 'bullmq';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { loadWorkerConfig } from '../../../../worker/src/config';
import { workerRepositories } from '../../../../worker/src/dependencies';
import { createUserSlots } from '../../../../worker/src/delivery/user-slots';
import { handleExportJob } from '../../../../worker/src/processors/handle-export-job';
import { startExportWorker } from '../../../../worker/src/worker';
import { ApiTestApp, startApiTestApp, TestUser } from '../../support/api-test-app';

export const LINK_SECRET = 'api-test-export-link-secret';

export interface ExportHarness {
  api: ApiTestApp;
  storageDir: string;
  worker: Worker;
  close(): Promise<void>;
}

/**
 * The API and a real export worker on their own Redis prefix and storage dir: POST /exports goes
 * through BullMQ to the worker, which writes files the API then serves.
 */
export async function startExportHarness(): Promise<ExportHarness> {
  const storageDir = await mkdtemp(join(tmpdir(), 'pfs-api-exports-'));
  const env = {
    REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX}exp-${Math.random().toString(36).slice(2, 8)}:`,
    STORAGE_DIR: storageDir,
    STORAGE_DRIVER: 'fs',
    EXPORT_URL: 'http://127.0.0.1:3000/export-files',
    EXPORT_LINK_SECRET: LINK_SECRET,
  };
  const api = await startApiTestApp(env);
  const { worker, redis } = await startExportWorkerFor(api, env);
  return {
    api,
    storageDir,
    worker,
    async close() {
      await worker.close();
      redis.disconnect();
      await api.close();
      await rm(storageDir, { recursive: true, force: true });
    },
  };
}

/**
 * A real export worker consuming the exports queue of `api` (same Redis prefix, database and storage); `env`
 * are the config overrides the API got. Close the worker, then disconnect `redis` (its per-user slots).
 */
export async function startExportWorkerFor(
  api: ApiTestApp,
  env: Record<string, string>,
): Promise<{ worker: Worker; redis: ReturnType<typeof createRedisClient> }> {
  const config = loadWorkerConfig({ ...process.env, ...env, WORKER_CONCURRENCY: '4' });
  const redis = createRedisClient({
    ...redisAddressOf(config),
    keyPrefix: config.REDIS_KEY_PREFIX,
    lazyConnect: false,
  });
  const worker = startExportWorker(
    config,
    testLogger(),
    handleExportJob({
      logger: testLogger(),
      repos: workerRepositories(api.deps.dataSource),
      storage: api.deps.storage,
      slots: createUserSlots(redis, 2),
      ttlSeconds: 3600,
    }),
  );
  await worker.waitUntilReady();
  return { worker, redis };
}

/** Polls GET /exports/{id} until the export reaches `status` (or fails the test after 20 s). */
export async function waitForStatus(api: ApiTestApp, user: TestUser, id: string, status: string) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await request(api.app).get(`/exports/${id}`).set('Authorization', user.auth).expect(200);
    if (answer.body.status === status) return answer.body;
    if (Date.now() > deadline) throw new Error(`export ${id} stuck in ${answer.body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The path and query of an absolute download URL, to replay against the in-process app. */
export const localPath = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

export const idFromLocation = (location: string) => location.split('/').pop()!;
