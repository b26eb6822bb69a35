import { accessTokenKey, hashToken, userProfileGenerationKey, userProfileKey } from '@pfs/contracts';
import { uniqueEmail } from '@pfs/testing';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import request from 'supertest';
import { obtainTokens } from '../../../auth/test/support/browser-flow';
import { useAuthTestApp } from '../../../auth/test/support/auth-test-app';
import { ImagesApp, startImagesApp, uploadImage } from '../../../api/test/integration/images/images-harness';
import type { CliIo } from '../../src/cli-context';
import { runCli } from '../../src/run-cli';

const SCOPE = 'user:r accounts:rw categories:rw entries:rw images:rw';

describe('operator CLI: user:delete', () => {
  const auth = useAuthTestApp();
  let api: ImagesApp;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    api = await startImagesApp();
    // The CLI deletes through the same storage the API wrote to.
    env = { ...process.env, STORAGE_DRIVER: 'fs', STORAGE_DIR: api.storageDir };
  });
  afterAll(() => api.close());

  async function cli(argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { stdout: (t) => out.push(t), stderr: (t) => err.push(t) };
    const code = await runCli(argv, io, env);
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  }

  /** A user with a token from the auth service, an account, a category, an entry, an image and an export file. */
  async function userWithData(label: string) {
    const email = uniqueEmail(label);
    const password = 'long enough passphrase';
    const { id } = JSON.parse((await cli(['user:create', '--email', email, '--password', password])).stdout);
    const args = [
      '--name',
      `${label} app`,
      '--redirect-uri',
      'https://app.example.test/cb',
      '--scope',
      SCOPE,
    ];
    const client = JSON.parse((await cli(['client:create', ...args])).stdout);
    const tokens = await obtainTokens(auth.app, client, { email, password });
    const user = { userId: String(id), token: tokens.access_token, auth: `Bearer ${tokens.access_token}` };
    const post = (path: string, body: object) =>
      request(api.app).post(path).set('Authorization', user.auth).send(body).expect(201);
    const idOf = (answer: request.Response) => String(answer.headers.location).split('/').pop()!;
    const account = idOf(await post('/accounts', { name: 'Wallet', currency: { code: 'EUR' } }));
    const category = idOf(await post('/categories', { name: 'Food', type: 'expense' }));
    await post('/entries', {
      amount: -12.5,
      currency: { code: 'EUR' },
      date: '2025-05-01',
      account,
      category,
    });
    await uploadImage(api, user);
    const [{ id: exportId }] = await api.deps.dataSource.query(
      `INSERT INTO exports (user_id, type, status, modified_at, change_seq)
       VALUES ($1, 'export', 'generated', now(), 1) RETURNING id::text`,
      [user.userId],
    );
    const key = `exports/${user.userId}/${exportId}/export.zip`;
    await api.deps.storage.write(key, Readable.from(['zip']));
    await api.deps.dataSource.query('UPDATE exports SET storage_key = $1 WHERE id = $2', [key, exportId]);
    return { ...user, email, tokens };
  }

  /** Rows of the user in every table with a user_id column (found in the catalog), plus users and owned clients. */
  async function rowsOf(userId: string): Promise<Record<string, number>> {
    const tables = (await api.deps.dataSource.query(
      `SELECT table_name FROM information_schema.columns
        WHERE column_name = 'user_id' AND table_schema = current_schema()`,
    )) as Array<{ table_name: string }>;
    const counts: Record<string, number> = {};
    const count = async (sql: string) => Number((await api.deps.dataSource.query(sql, [userId]))[0].n);
    for (const { table_name: table } of tables) {
      counts[table] = await count(`SELECT count(*) AS n FROM "${table}" WHERE user_id = $1`);
    }
    counts.users = await count('SELECT count(*) AS n FROM users WHERE id = $1');
    counts.oauth_clients = await count('SELECT count(*) AS n FROM oauth_clients WHERE owner_user_id = $1');
    return counts;
  }

  /** The cached `/me` of the user and its generation, under this run's key prefix. */
  const profileKeys = (userId: string) =>
    auth.deps.redis.exists(userProfileKey(userId), userProfileGenerationKey(userId));

  async function storedFiles(userId: string): Promise<string[]> {
    const files: string[] = [];
    for (const prefix of ['images', 'exports']) {
      const folder = join(api.storageDir, prefix, userId);
      const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
      files.push(...entries.filter((entry) => entry.isFile()).map((entry) => entry.name));
    }
    return files;
  }

  it('when user:delete runs with --yes, then no row, file or token of the user remains and others keep theirs', async () => {
    const doomed = await userWithData('doomed');
    const other = await userWithData('kept');
    // The user's own registered application goes too (owner_user_id would only be set to NULL).
    await api.deps.dataSource.query(
      `UPDATE oauth_clients SET owner_user_id = $1
        WHERE id = (SELECT client_id FROM oauth_tokens WHERE user_id = $1 LIMIT 1)`,
      [doomed.userId],
    );
    await request(api.app).get('/me').set('Authorization', doomed.auth).expect(200);
    expect(await profileKeys(doomed.userId)).toBeGreaterThan(0);
    const before = await rowsOf(doomed.userId);
    for (const table of [
      'users',
      'accounts',
      'entries',
      'images',
      'exports',
      'oauth_tokens',
      'oauth_clients',
    ])
      expect(before[table]).toBeGreaterThan(0);
    expect((await storedFiles(doomed.userId)).length).toBeGreaterThanOrEqual(3);
    const otherRows = await rowsOf(other.userId);
    const otherFiles = await storedFiles(other.userId);

    const refused = await cli(['user:delete', '--user', doomed.email]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes is required');
    expect((await rowsOf(doomed.userId)).users).toBe(1);

    const deleted = await cli(['user:delete', '--user', doomed.email.toUpperCase(), '--yes']);
    expect(deleted).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(deleted.stdout)).toMatchObject({
      user_id: doomed.userId,
      deleted: true,
      deleted_clients: 1,
    });

    const after = await rowsOf(doomed.userId);
    expect(Object.keys(after).length).toBeGreaterThan(10);
    expect(Object.entries(after).filter(([, n]) => n !== 0)).toEqual([]);
    expect(await storedFiles(doomed.userId)).toEqual([]);
    expect(await auth.deps.redis.exists(accessTokenKey(hashToken(doomed.tokens.access_token)))).toBe(0);
    expect(await profileKeys(doomed.userId)).toBe(0);
    await request(api.app).get('/me').set('Authorization', doomed.auth).expect(401);

    expect(await rowsOf(other.userId)).toEqual(otherRows);
    expect(await storedFiles(other.userId)).toEqual(otherFiles);
    await request(api.app).get('/me').set('Authorization', other.auth).expect(200);

    const again = await cli(['user:delete', '--user', doomed.userId, '--yes']);
    expect(again).toMatchObject({ code: 2, stderr: `--user: no user ${doomed.userId} (see user:list)` });
  });
});
