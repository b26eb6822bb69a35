import { createRedisClient } from '@pfs/redis';
import { createDataSource, resourceEntities } from '@pfs/resource-store';
import { FsStorage } from '@pfs/storage';
import { testLogger } from '@pfs/testing';
import { readFileSync } from 'node:fs';
import { workerRepositories } from '../../src/dependencies';
import { createUserSlots } from '../../src/delivery/user-slots';
import { runExport } from '../../src/use-cases/run-export.use-case';

/**
 * Manual measurement (not a test): node -r ./ts-child-register.js measure-export.ts <databaseUrl> <email> <format>
 * runs one export of that user in this process and prints the time to generated and the peak RSS.
 */
async function main() {
  const [databaseUrl, email, format, storageDir] = process.argv.slice(2);
  const dataSource = createDataSource({ url: databaseUrl, entities: resourceEntities, poolSize: 4 });
  await dataSource.initialize();
  const redis = createRedisClient({
    url: 'redis://127.0.0.1:6379/0',
    keyPrefix: 'pfs-measure:',
    lazyConnect: false,
  });
  const repos = workerRepositories(dataSource);
  const user = (await repos.users.findByEmail(email))!;
  const created = await repos.store.change(user.id, (change) =>
    repos.exports.create(change, {
      type: 'export',
      resources: ['expenses', 'incomes'],
      formats: [format],
      filters: null,
      from: null,
      to: null,
    }),
  );
  const started = Date.now();
  const done = await runExport(
    {
      logger: testLogger(),
      repos,
      storage: new FsStorage({
        root: storageDir,
        publicBaseUrl: 'http://127.0.0.1/export-files',
        linkSecret: 'x',
      }),
      slots: createUserSlots(redis, 1),
      ttlSeconds: 3600,
    },
    user.id,
    created.id,
  );
  const seconds = (Date.now() - started) / 1000;
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1];
  console.log(
    JSON.stringify({
      format,
      status: done?.status,
      seconds,
      filesize: done?.filesize,
      peakRssMb: Math.round(Number(hwm) / 1024),
    }),
  );
  redis.disconnect();
  await dataSource.destroy();
}

void main();
