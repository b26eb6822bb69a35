import { userSessionsKey } from '@pfs/contracts';
import { loadWorkerConfig } from '@pfs/worker';
import {
  createAccountDeletionProcessor,
  createWorkerDependencies,
  runExport,
  startAccountDeletionWorker,
} from '@pfs/worker';
import { testLogger, uniqueEmail } from '@pfs/testing';
import type { Worker } from 'bullmq';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { AuthTestApp, createTestUser, startAuthTestApp } from '../../../../auth/test/support/auth-test-app';
import { inputValue, signedInAgent } from '../../../../auth/test/support/browser-flow';
import { ApiTestApp, startApiTestApp } from '../../support/api-test-app';

/** Every file under `dir`, as storage keys. */
async function storedKeys(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

/**
 * Issue 17, point 2: `DELETE /me` over HTTP re-checks the password, closes the account at once, and the
 * worker's deletion job erases every row of the user in every table, every stored file and every Redis key.
 */
describe('DELETE /me: the account and everything of it', () => {
  let storageDir: string;
  let api: ApiTestApp;
  let auth: AuthTestApp;
  let workerDeps: Awaited<ReturnType<typeof createWorkerDependencies>>;
  let worker: Worker;
  const password = 'correct horse battery';

  beforeAll(async () => {
    storageDir = await mkdtemp(join(tmpdir(), 'pfs-delete-me-'));
    const env = { STORAGE_DRIVER: 'fs', STORAGE_DIR: storageDir };
    auth = await startAuthTestApp(env);
    api = await startApiTestApp(env);
    const config = loadWorkerConfig({ ...process.env, ...env });
    workerDeps = await createWorkerDependencies(config, testLogger());
    worker = startAccountDeletionWorker(
      config,
      testLogger(),
      createAccountDeletionProcessor(workerDeps, testLogger()),
    );
    await worker.waitUntilReady();
  }, 60_000);

  afterAll(async () => {
    await worker?.close();
    await workerDeps?.close();
    await api?.close();
    await auth?.deps.close();
    await rm(storageDir, { recursive: true, force: true });
  });

  /** A user with a password, a personal token, a signed-in browser, and data of every kind through the API. */
  async function userWithData(label: string) {
    const email = uniqueEmail(label);
    const { user } = await createTestUser(auth.deps, email, password);
    const { agent } = await signedInAgent(auth.app, email, password);
    const account = await agent.get('/account').expect(200);
    const created = await agent
      .post('/account/tokens')
      .type('form')
      .send({ csrf_token: inputValue(account.text, 'csrf_token'), name: 'script' })
      .expect(200);
    const token = /id="new-token">([^<]+)</.exec(created.text)![1];
    const call = (method: 'post' | 'get' | 'delete', path: string) =>
      request(api.app)[method](path).set('Authorization', `Bearer ${token}`);
    const location = (answer: request.Response) => String(answer.headers.location).split('/').pop()!;
    const accountId = location(
      await call('post', '/accounts')
        .send({ name: 'Cash', currency: { code: 'EUR' } })
        .expect(201),
    );
    const categoryId = location(
      await call('post', '/categories').send({ name: 'Food', type: 'expense' }).expect(201),
    );
    await call('post', '/tags').send({ name: 'lunch', type: 'expense', category: categoryId }).expect(201);
    await call('post', '/entries')
      .send({
        amount: -12.5,
        currency: { code: 'EUR' },
        date: '2025-05-09',
        account: accountId,
        category: categoryId,
      })
      .expect(201);
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#c00' } })
      .png()
      .toBuffer();
    await call('post', '/images').set('Content-Type', 'image/png').send(png).expect(201);
    const exportId = location(await call('post', '/exports').send({ type: 'user_data' }).expect(201));
    await runExport(workerDeps, user.id, exportId);
    return { user, email, token, agent, call };
  }

  /** Rows of the user in every table of the schema that has a user_id or owner_user_id column, and in users. */
  async function rowsOf(userId: string): Promise<Record<string, number>> {
    const columns: Array<{ table_name: string; column_name: string }> = await api.deps.dataSource.query(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND column_name IN ('user_id', 'owner_user_id')`,
    );
    const counts: Record<string, number> = {};
    for (const { table_name: table, column_name: column } of columns) {
      const [row] = await api.deps.dataSource.query(
        `SELECT count(*)::int AS n FROM "${table}" WHERE "${column}" = $1`,
        [userId],
      );
      counts[`${table}.${column}`] = row.n;
    }
    const [users] = await api.deps.dataSource.query(`SELECT count(*)::int AS n FROM users WHERE id = $1`, [
      userId,
    ]);
    counts['users.id'] = users.n;
    return counts;
  }

  /** Key segments followed by an id of another sequence than users'. */
  const OTHER_ID_SEQUENCES = new Set(['grant', 'personal-token']);

  /**
   * The user a key names: its Cluster hash tag when it has one (`rl:{<user>}:<app>:<bucket>`,
   * `user-profile:{<user>}`: the other numbers there are an application and a window), else its first
   * all-digit segment (`user-sessions:<user>`, `list-version:<user>`). Grant and personal-token keys name
   * ids of other sequences.
   */
  function userIdNamedBy(key: string): string | undefined {
    const tag = /\{([^}]*)\}/.exec(key);
    if (tag) return tag[1];
    // Other suites' keys may sit under a prefix of their own (`tokens-<hex>:grant:<id>:tokens`).
    const segments = key.split(':');
    const at = segments.findIndex((segment) => /^[0-9]+$/.test(segment));
    if (at === -1 || OTHER_ID_SEQUENCES.has(segments[at - 1])) return undefined;
    return segments[at];
  }

  /** Keys of this run's Redis prefix naming the user (userIdNamedBy), the session index included. */
  async function redisKeysOf(userId: string): Promise<string[]> {
    const prefix = process.env.REDIS_KEY_PREFIX ?? '';
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await api.deps.redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      found.push(...keys.filter((key) => userIdNamedBy(key.slice(prefix.length)) === userId));
    } while (cursor !== '0');
    return found;
  }

  async function deletionFinished(userId: string) {
    for (let i = 0; i < 400; i += 1) {
      const [users] = await api.deps.dataSource.query(`SELECT count(*)::int AS n FROM users WHERE id = $1`, [
        userId,
      ]);
      if (users.n === 0 && !(await api.deps.accountDeletions.stateOf(userId))) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the deletion of user ${userId} did not finish`);
  }

  it('when the password is missing or wrong, then nothing is deleted and the answer names the field', async () => {
    const { user, call } = await userWithData('delete-refused');
    const missing = await call('delete', '/me').send({}).expect(400);
    expect(missing.body.fields).toEqual([expect.objectContaining({ field: 'password' })]);
    const wrong = await call('delete', '/me').send({ password: 'not my password' }).expect(403);
    expect(wrong.body.fields).toEqual([{ field: 'password', error: 'is incorrect' }]);
    await call('get', '/me').expect(200);
    expect((await rowsOf(user.id))['users.id']).toBe(1);
    expect(await api.deps.accountDeletions.stateOf(user.id)).toBeUndefined();
  });

  it('when a user deletes the account with the password, then the token dies at once and the job leaves no row, file or Redis key of the user', async () => {
    const other = await userWithData('delete-other');
    const { user, email, call, agent } = await userWithData('delete-me');
    expect(await redisKeysOf(user.id)).toContain(
      `${process.env.REDIS_KEY_PREFIX ?? ''}${userSessionsKey(user.id)}`,
    );
    const before = await rowsOf(user.id);
    // The data really exists in many tables and in storage before deletion.
    expect(Object.values(before).filter((n) => n > 0).length).toBeGreaterThanOrEqual(8);
    const keysBefore = await storedKeys(storageDir);
    expect(keysBefore.filter((key) => key.startsWith(`images/${user.id}/`)).length).toBeGreaterThan(0);
    expect(keysBefore.filter((key) => key.startsWith(`exports/${user.id}/`)).length).toBeGreaterThan(0);

    await call('delete', '/me').send({ password }).expect(204);
    await call('get', '/me').expect(401);
    await agent.get('/account').expect(303);
    await expect(signedInAgent(auth.app, email, password)).rejects.toThrow();

    await deletionFinished(user.id);
    const after = await rowsOf(user.id);
    expect(Object.entries(after).filter(([, n]) => n > 0)).toEqual([]);
    const keysAfter = await storedKeys(storageDir);
    expect(keysAfter.filter((key) => key.includes(`/${user.id}/`))).toEqual([]);
    expect(await redisKeysOf(user.id)).toEqual([]);

    // The other user is untouched.
    await other.call('get', '/me').expect(200);
    expect((await rowsOf(other.user.id))['users.id']).toBe(1);
    expect(
      (await storedKeys(storageDir)).filter((key) => key.startsWith(`images/${other.user.id}/`)).length,
    ).toBeGreaterThan(0);
  });
});
