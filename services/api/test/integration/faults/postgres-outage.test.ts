import { Decimal } from '@pfs/money';
import { PrivatePostgres, startPrivatePostgres } from '@pfs/testing';
import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTestUser,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';

/**
 * A private PostgreSQL cluster (initdb + pg_ctl on a free port) that the test crash-stops and restarts
 * under concurrent writers: clients see 503 error.unavailable (never 500), writes succeed again once it is
 * back, and the balance is exactly the sum of the entries stored.
 */
describe('PostgreSQL outages seen by the API', () => {
  let cluster: PrivatePostgres;
  let t: ApiTestApp;
  let user: TestUser;
  let accountId: string;
  let categoryId: string;

  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    t = await startApiTestApp({
      DATABASE_URL: cluster.url('pfs_fault'),
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      DATABASE_STATEMENT_TIMEOUT_MS: '15000',
      RATE_LIMIT_LIMIT: '1000000',
    });
    user = await createTestUser(t.deps);
    const created = await request(t.app)
      .post('/accounts')
      .set('Authorization', user.auth)
      .send({ name: 'Cash', currency: { code: 'EUR' }, initial_balance: 10 })
      .expect(201);
    accountId = String(created.headers.location).split('/').pop()!;
    categoryId = await createCategory(t.app, user, { name: 'Food', type: 'expense' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await cluster?.destroy();
  });

  const writeEntry = (amount: string) =>
    request(t.app)
      .post('/entries')
      .set('Authorization', user.auth)
      .send({
        amount: Number(amount),
        currency: { code: 'EUR' },
        date: '2025-05-09',
        account: accountId,
        category: categoryId,
      });

  it('when Postgres is stopped, then reads and writes answer 503 with Retry-After; when it is back, 200 again', async () => {
    await cluster.stop();
    for (const answer of [
      await request(t.app).get('/accounts').set('Authorization', user.auth),
      await writeEntry('-1.25'),
    ]) {
      expect(answer.status).toBe(503);
      expect(answer.body.error_id).toBe('error.unavailable');
      expect(answer.headers['retry-after']).toBeDefined();
    }
    await cluster.start();
    await request(t.app).get('/accounts').set('Authorization', user.auth).expect(200);
  });

  it('when Postgres crash-restarts under writers, then no 500, writes after recovery succeed, and the balance is exact', async () => {
    const acknowledged: string[] = [];
    const statuses = new Set<number>();
    const unexpected: unknown[] = [];
    let writing = true;
    let sequence = 0;
    const writer = async () => {
      while (writing) {
        sequence += 1;
        const amount = new Decimal(sequence).dividedBy(100).negated().toFixed();
        const answer = await writeEntry(amount);
        statuses.add(answer.status);
        if (answer.status !== 201 && answer.status !== 503)
          unexpected.push({ status: answer.status, body: answer.body });
        if (answer.status === 201) acknowledged.push(String(answer.headers.location).split('/').pop()!);
        if (answer.status === 503) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const writers = [writer(), writer(), writer(), writer()];
    await new Promise((resolve) => setTimeout(resolve, 500));
    await cluster.stop();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await cluster.start();
    const before = acknowledged.length;
    const deadline = Date.now() + 60_000;
    while (acknowledged.length < before + 10 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    writing = false;
    await Promise.all(writers);

    expect(unexpected.slice(0, 3)).toEqual([]);
    expect([...statuses].sort()).toEqual([201, 503]);
    expect(acknowledged.length).toBeGreaterThanOrEqual(before + 10);

    // Every acknowledged write is stored, and the balance is the initial balance plus what is stored.
    const stored: Array<{ id: string; amount: string }> = await t.deps.dataSource.query(
      `SELECT id::text AS id, amount::text AS amount FROM entries WHERE user_id = $1 AND NOT deleted`,
      [user.userId],
    );
    const storedIds = new Set(stored.map((row) => row.id));
    expect(acknowledged.filter((id) => !storedIds.has(id))).toEqual([]);
    const expected = stored.reduce((sum, row) => sum.plus(row.amount), new Decimal(10)).toFixed();
    const account = await request(t.app)
      .get(`/accounts/${accountId}`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(new Decimal(account.body.balance).toFixed()).toBe(expected);
  }, 120_000);
});
