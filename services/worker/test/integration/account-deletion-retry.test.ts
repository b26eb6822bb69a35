import { openAccountDeletionQueue, AccountDeletionQueue } from '@pfs/jobs';
import { testLogger, uniqueEmail } from '@pfs/testing';
import type { Worker } from 'bullmq';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadWorkerConfig } from '../../src/config';
import { createWorkerDependencies, WorkerDependencies } from '../../src/dependencies';
import { createAccountDeletionProcessor } from '../../src/processors/account-deletion.processor';
import { startAccountDeletionWorker } from '../../src/worker';

/**
 * Issue 17, point 2: the account deletion job is retried until it completes. A real fault: the storage
 * folder of images is a plain file, so removing the user's images fails (ENOTDIR) until it is put right.
 */
describe('the account deletion job, retried until it completes', () => {
  let storageDir: string;
  let deps: WorkerDependencies;
  let worker: Worker;
  let queue: AccountDeletionQueue;
  const failures: string[] = [];

  beforeAll(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'pfs-deletion-retry-'));
    const config = loadWorkerConfig({ ...process.env, STORAGE_DRIVER: 'fs', STORAGE_DIR: storageDir });
    deps = await createWorkerDependencies(config, testLogger());
    queue = openAccountDeletionQueue(config);
    worker = startAccountDeletionWorker(
      config,
      testLogger(),
      createAccountDeletionProcessor(deps, testLogger()),
    );
    worker.on('failed', (_job, error) => failures.push(error.message));
    await worker.waitUntilReady();
  }, 60_000);

  afterAll(async () => {
    await worker?.close();
    await queue?.close();
    await deps?.close();
    await rm(storageDir, { recursive: true, force: true });
  });

  it('when an attempt fails on a storage fault, then the job tries again and erases the user once the fault is gone', async () => {
    const user = await deps.repos.userAccounts.create(
      { email: uniqueEmail('retry') },
      { passwordHash: '$argon2id$unused', otpSecret: null, otpEnabledAt: null },
    );
    await mkdir(join(storageDir, 'exports', user.id), { recursive: true });
    await writeFile(join(storageDir, 'exports', user.id, 'data.zip'), 'zip');
    await writeFile(join(storageDir, 'images'), 'a file where the images folder belongs');

    await queue.request(user.id);
    for (let i = 0; i < 400 && failures.length === 0; i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(failures[0]).toMatch(/ENOTDIR/);
    expect(await queue.stateOf(user.id)).toMatch(/delayed|waiting|active/);
    expect(await deps.repos.users.findById(user.id)).toBeDefined();

    await rm(join(storageDir, 'images'));
    for (let i = 0; i < 800 && (await queue.stateOf(user.id)); i += 1)
      await new Promise((r) => setTimeout(r, 25));
    expect(await queue.stateOf(user.id)).toBeUndefined();
    expect(await deps.repos.users.findById(user.id)).toBeUndefined();
    expect(await deps.repos.userAccounts.findByIdOrEmail(user.id)).toBeUndefined();
    expect(await readdir(join(storageDir, 'exports'))).toEqual([]);
  }, 60_000);
});
