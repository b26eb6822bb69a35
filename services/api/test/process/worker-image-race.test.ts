import { buffer } from 'node:stream/consumers';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { unzip } from '../../../worker/test/support/read-export-file';
import { ApiTestApp, createTestUser, startApiTestApp, TestUser } from '../support/api-test-app';
import { idFromLocation, waitForStatus } from '../integration/exports/export-harness';
import { IMAGE_SCOPES, makeImage, uploadImage } from '../integration/images/images-harness';

/**
 * The race that used to kill the export worker (and `npm start` with it): a user deletes images while
 * their `attachments` export copies them. The real worker process runs the exports from its build, over
 * real files; it must stay up, and every export must finish with each image either copied or skipped.
 */
const repoRoot = join(__dirname, '../../../..');
const ROUNDS = 6;
const IMAGES = 8;

let storageDir: string;
let api: ApiTestApp;
let worker: ChildProcess;
let output = '';
let user: TestUser;

beforeAll(async () => {
  storageDir = await mkdtemp(join(tmpdir(), 'pfs-image-race-'));
  const env = {
    REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX}race-${Math.random().toString(36).slice(2, 8)}:`,
    STORAGE_DRIVER: 'fs',
    STORAGE_DIR: storageDir,
    EXPORT_LINK_SECRET: 'image-race-link-secret',
    WORKER_PORT: '0',
    WORKER_CONCURRENCY: '2',
    LOG_LEVEL: 'warn',
  };
  api = await startApiTestApp(env);
  worker = spawn(process.execPath, [join(repoRoot, 'services/worker/dist/main.js')], {
    env: { ...process.env, ...env, LOG_LEVEL: 'info' },
    stdio: 'pipe',
  });
  worker.stdout!.on('data', (chunk) => (output += chunk));
  worker.stderr!.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 20_000;
  while (!output.includes('worker running')) {
    if (Date.now() > deadline || worker.exitCode !== null)
      throw new Error(`worker did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  user = await createTestUser(api.deps, `${IMAGE_SCOPES} user:rw budgets:r`);
}, 40_000);

afterAll(async () => {
  worker.kill('SIGKILL');
  await api.close();
  await rm(storageDir, { recursive: true, force: true });
});

it(`when images are deleted while their attachments export runs (${ROUNDS} rounds), then the worker stays up and every export finishes`, async () => {
  const bytes = await makeImage('jpeg', 1600, 1200);
  for (let round = 0; round < ROUNDS; round += 1) {
    const ids: string[] = [];
    for (let i = 0; i < IMAGES; i += 1) ids.push(await uploadImage(api, user, bytes));
    const posted = await request(api.app)
      .post('/exports')
      .set('Authorization', user.auth)
      .send({ type: 'attachments', resources: [], formats: [] })
      .expect(201);
    const exportId = idFromLocation(posted.headers.location);
    // Deletions spread over the export's run: some images go before they are copied, some during.
    for (const [index, id] of ids.entries()) {
      await new Promise((resolve) => setTimeout(resolve, (index * round) % 7));
      await request(api.app).delete(`/images/${id}`).set('Authorization', user.auth).expect(204);
    }
    await waitForStatus(api, user, exportId, 'sent');
    expect(worker.exitCode).toBeNull();

    const record = (await api.deps.repos.exports.findById(
      api.deps.store.read({ userId: user.userId }),
      exportId,
    ))!;
    const files = await unzip(await buffer((await api.deps.storage.read(record.storageKey!)).body));
    const index = JSON.parse(files['index.json'].toString()) as {
      images: Array<{ id: string; file: string | null; skipped?: string }>;
    };
    for (const image of index.images) {
      if (image.file) expect(files[image.file].length).toBeGreaterThan(0);
      else expect(image.skipped).toMatch(/no longer in storage/);
    }
  }
  expect(output).not.toMatch(/ENOENT|uncaught|unhandled/i);
}, 120_000);
