import { createRedisClient, redisAddressOf } from '@pfs/redis';
import { testLogger } from '@pfs/testing';
import { Readable } from 'node:stream';
import { loadWorkerConfig } from '../../src/config';
import { createUserSlots } from '../../src/delivery/user-slots';
import { handleExportJob } from '../../src/processors/handle-export-job';
import { startExportWorker } from '../../src/worker';
import { createTestPipeline } from './pipeline-deps';

/**
 * A real export worker in its own process, for the "killed worker" test: its storage never finishes a
 * write, so the job is in progress when the parent kills the process with SIGKILL.
 */
async function main() {
  const config = loadWorkerConfig();
  const pipeline = await createTestPipeline();
  const redis = createRedisClient({
    ...redisAddressOf(config),
    keyPrefix: config.REDIS_KEY_PREFIX,
    lazyConnect: false,
  });
  const storage = pipeline.deps.storage;
  pipeline.deps.storage = {
    ...storage,
    driver: storage.driver,
    size: (key) => storage.size(key),
    read: (key) => storage.read(key),
    sweepAbandonedWrites: (olderThan) => storage.sweepAbandonedWrites(olderThan),
    delete: (key) => storage.delete(key),
    deletePrefix: (prefix) => storage.deletePrefix(prefix),
    createDownloadLink: (key, options) => storage.createDownloadLink(key, options),
    write: async (_key: string, body: Readable) => {
      process.stdout.write('writing\n');
      body.resume();
      return new Promise<{ size: number }>(() => undefined);
    },
  };
  pipeline.deps.slots = createUserSlots(redis, 1, 1_500);
  const worker = startExportWorker(config, testLogger(), handleExportJob(pipeline.deps));
  await worker.waitUntilReady();
  process.stdout.write('ready\n');
}

void main();
