import { testLogger } from '@pfs/testing';
import { createServer } from 'node:net';
import { buildApiApp } from '../../../src/app';
import { loadApiConfig } from '../../../src/config';
import { createApiDependencies } from '../../../src/dependencies';
import { openExportJobQueue } from '@pfs/jobs';

/** A loopback port nothing listens on: taken from the OS, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** BullMQ's start-up of the export queue must never outlive a close as an unhandled 'error' (it fails the run). */
describe('closing the API right after it started', () => {
  it('when the app is built and closed at once 20 times, then every close resolves and nothing is left unhandled', async () => {
    const config = loadApiConfig(process.env);
    for (let round = 0; round < 20; round += 1) {
      const deps = await createApiDependencies(config, testLogger());
      buildApiApp(deps);
      await expect(deps.close()).resolves.toBeUndefined();
    }
    // Each round opens the database (its migration lock and check) and Redis: about 1 s a round when two
    // cores are shared with the rest of the run, where the default 30 s once ran out.
  }, 120_000);

  it('when Redis cannot be reached, then closing the export queue still resolves without an unhandled error', async () => {
    const port = await closedPort();
    const queue = openExportJobQueue({
      REDIS_URL: `redis://127.0.0.1:${port}/0`,
      REDIS_KEY_PREFIX: 'closetest:',
      REDIS_COMMAND_TIMEOUT_MS: 2_000,
      REDIS_CONNECT_TIMEOUT_MS: 5_000,
    });
    await expect(queue.close()).resolves.toBeUndefined();
  });
});
