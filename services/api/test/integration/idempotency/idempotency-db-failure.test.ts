import { Decimal } from '@pfs/money';
import { PrivatePostgres, startPrivatePostgres } from '@pfs/testing';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { QueryRunner } from 'typeorm';
import {
  ApiTestApp,
  createCategory,
  createTestUser,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';
import { PDF_BYTES } from '../images/images-harness';

/** The advisory lock a test trigger waits on, so the test holds a request at one statement of its transaction. */
const HOLD = 4_242_001;

/**
 * Idempotency keys when the database fails mid-request (issue 11 point 6), over HTTP against a private
 * PostgreSQL cluster: a trigger holds the request's transaction at one statement (before the write, or at
 * the completion of the key, after the write), the test terminates that backend, then retries with the same
 * key. The retry runs exactly once or replays: never 409, never a second entry, the balance exact.
 */
describe('Idempotency-Key when the database fails mid-request', () => {
  let cluster: PrivatePostgres;
  let t: ApiTestApp;
  let user: TestUser;
  let storageDir: string;
  let accountId: string;
  let categoryId: string;
  let holder: QueryRunner;

  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    storageDir = await mkdtemp(join(tmpdir(), 'pfs-idempotency-'));
    t = await startApiTestApp({
      DATABASE_URL: cluster.url('pfs_idempotency'),
      STORAGE_DRIVER: 'fs',
      STORAGE_DIR: storageDir,
      RATE_LIMIT_LIMIT: '1000000',
    });
    user = await createTestUser(t.deps, 'user:rw categories:rw entries:rw accounts:rw images:r images:rw');
    const created = await request(t.app)
      .post('/accounts')
      .set('Authorization', user.auth)
      .send({ name: 'Cash', currency: { code: 'EUR' }, initial_balance: 10 })
      .expect(201);
    accountId = String(created.headers.location).split('/').pop()!;
    categoryId = await createCategory(t.app, user, { name: 'Food', type: 'expense' });
    await t.deps.dataSource.query(
      `CREATE FUNCTION pfs_test_hold() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN PERFORM pg_advisory_xact_lock(${HOLD}); RETURN NEW; END $$`,
    );
    holder = t.deps.dataSource.createQueryRunner();
    await holder.connect();
  }, 120_000);
  afterAll(async () => {
    await holder?.release();
    await t?.close();
    await cluster?.destroy();
    await rm(storageDir, { recursive: true, force: true });
  });

  /** Holds every `event` on `table` (BEFORE trigger) until `release`; the held backend can then be killed. */
  async function holdAt(table: string, event: 'INSERT' | 'UPDATE') {
    await holder.query(`SELECT pg_advisory_lock($1)`, [HOLD]);
    await holder.query(
      `CREATE TRIGGER pfs_test_hold BEFORE ${event} ON ${table} FOR EACH ROW EXECUTE FUNCTION pfs_test_hold()`,
    );
    return {
      /** The pid of the one backend waiting on the hold (polls until it waits). */
      async waiting(): Promise<number> {
        for (let attempt = 0; attempt < 200; attempt++) {
          const rows: Array<{ pid: number }> = await holder.query(
            `SELECT pid FROM pg_stat_activity
             WHERE wait_event_type = 'Lock' AND wait_event = 'advisory' AND datname = current_database()`,
          );
          if (rows.length === 1) return rows[0].pid;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        throw new Error('no request waits on the hold');
      },
      async terminate(): Promise<void> {
        const pid = await this.waiting();
        await holder.query(`SELECT pg_terminate_backend($1)`, [pid]);
      },
      /** Lets the held request go on, then drops the trigger (which waits for the request to end). */
      async release(): Promise<void> {
        await holder.query(`SELECT pg_advisory_unlock_all()`);
        await holder.query(`DROP TRIGGER IF EXISTS pfs_test_hold ON ${table}`);
      },
    };
  }

  const postEntry = (key: string, amount: number) =>
    request(t.app)
      .post('/entries')
      .set('Authorization', user.auth)
      .set('Idempotency-Key', key)
      .send({
        amount,
        currency: { code: 'EUR' },
        date: '2025-05-09',
        account: accountId,
        category: categoryId,
      });

  const entriesDescribed = async (desc: string): Promise<number> => {
    const [row] = await t.deps.dataSource.query(
      `SELECT count(*)::int AS count FROM entries WHERE user_id = $1 AND description = $2 AND NOT deleted`,
      [user.userId, desc],
    );
    return row.count;
  };
  const balance = async () =>
    (await request(t.app).get(`/accounts/${accountId}`).set('Authorization', user.auth).expect(200)).body
      .balance as number;
  const less = (amount: number, by: string) => new Decimal(amount).minus(by).toFixed();
  const storedKeys = async (key: string) =>
    (await t.deps.dataSource.query(`SELECT status FROM idempotency_keys WHERE user_id = $1 AND key = $2`, [
      user.userId,
      key,
    ])) as Array<{ status: number | null }>;

  async function killedThenRetried(key: string, table: string, event: 'INSERT' | 'UPDATE') {
    const before = await balance();
    const hold = await holdAt(table, event);
    let first: request.Response;
    try {
      const sent = postEntry(key, -2.5).then((answer) => answer);
      await hold.terminate();
      first = await sent;
    } finally {
      await hold.release();
    }
    expect(first.status).toBe(503);
    // The transaction died: no claim is left behind to answer "still being processed".
    expect(await storedKeys(key)).toEqual([]);
    const retry = await postEntry(key, -2.5);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    const again = await postEntry(key, -2.5).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(retry.body);
    expect(new Decimal(await balance()).toFixed()).toBe(less(before, '2.5'));
    return retry;
  }

  it('when the backend dies before the write, then the retry with the same key runs once', async () => {
    const retry = await killedThenRetried('before-write', 'entries', 'INSERT');
    const [row] = await t.deps.dataSource.query(
      `SELECT count(*)::int AS count FROM entries WHERE user_id = $1 AND id = $2`,
      [user.userId, retry.body.id],
    );
    expect(row.count).toBe(1);
  });

  it('when the backend dies after the write (completing the key), then the retry runs once, never 409', async () => {
    const [{ count: entriesBefore }] = await t.deps.dataSource.query(
      `SELECT count(*)::int AS count FROM entries WHERE user_id = $1 AND NOT deleted`,
      [user.userId],
    );
    await killedThenRetried('after-write', 'idempotency_keys', 'UPDATE');
    const [{ count: entriesAfter }] = await t.deps.dataSource.query(
      `SELECT count(*)::int AS count FROM entries WHERE user_id = $1 AND NOT deleted`,
      [user.userId],
    );
    expect(entriesAfter).toBe(entriesBefore + 1);
  });

  it('when a duplicate arrives while the first is still running, then it waits and replays the first answer', async () => {
    const body = { desc: 'concurrent' };
    const send = () =>
      request(t.app)
        .post('/entries')
        .set('Authorization', user.auth)
        .set('Idempotency-Key', 'concurrent')
        .send({
          amount: -1,
          currency: { code: 'EUR' },
          date: '2025-05-09',
          account: accountId,
          category: categoryId,
          ...body,
        });
    const hold = await holdAt('idempotency_keys', 'UPDATE');
    let answers: request.Response[];
    try {
      const first = send().then((answer) => answer);
      await hold.waiting();
      const second = send().then((answer) => answer);
      // The duplicate waits on the first one's uncommitted claim row.
      for (let attempt = 0; attempt < 200; attempt++) {
        const [{ count }] = await holder.query(
          `SELECT count(*)::int AS count FROM pg_stat_activity
           WHERE wait_event_type = 'Lock' AND wait_event = 'transactionid' AND datname = current_database()`,
        );
        if (count === 1) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await hold.release();
      answers = await Promise.all([first, second]);
    } finally {
      await hold.release();
    }
    expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
    expect(answers[0].headers['idempotent-replayed']).toBeUndefined();
    expect(answers[1].headers['idempotent-replayed']).toBe('true');
    expect(answers[1].body).toEqual(answers[0].body);
    expect(await entriesDescribed('concurrent')).toBe(1);
  });

  it('when the backend dies while an upload is recorded, then its stored files are removed and the retry stores one image', async () => {
    const upload = () =>
      request(t.app)
        .post('/images')
        .set('Authorization', user.auth)
        .set('Idempotency-Key', 'upload')
        .attach('file', PDF_BYTES, { filename: 'scan.pdf', contentType: 'application/pdf' });
    const filesOfUser = async () => {
      const folders = await readdir(join(storageDir, 'images', user.userId)).catch(() => []);
      return folders.length;
    };
    const hold = await holdAt('images', 'INSERT');
    let first: request.Response;
    try {
      const sent = upload().then((answer) => answer);
      await hold.waiting();
      // The files are written before the row: the upload's folder exists while the row waits.
      expect(await filesOfUser()).toBe(1);
      await hold.terminate();
      first = await sent;
    } finally {
      await hold.release();
    }
    expect(first.status).toBe(503);
    expect(
      await readdir(join(storageDir, 'images', user.userId)).then(async (folders) => {
        const files = await Promise.all(
          folders.map((folder) => readdir(join(storageDir, 'images', user.userId, folder))),
        );
        return files.flat();
      }),
    ).toEqual([]);
    const retry = await upload().expect(201);
    const images: Array<{ id: string }> = await t.deps.dataSource.query(
      `SELECT id::text AS id FROM images WHERE user_id = $1 AND NOT deleted`,
      [user.userId],
    );
    expect(images.map((image) => image.id)).toEqual([retry.body.id]);
    await request(t.app)
      .get(`/images/${retry.body.id}/document.pdf`)
      .set('Authorization', user.auth)
      .expect(200);
  });
});
