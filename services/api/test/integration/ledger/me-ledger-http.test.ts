import request from 'supertest';
import { ApiTestApp, createCategory, createTestUser, startApiTestApp } from '../../support/api-test-app';
import { postAccount } from './ledger-http';

let api: ApiTestApp;
beforeAll(async () => {
  api = await startApiTestApp();
});
afterAll(() => api.close());

describe('PUT /me', () => {
  it('when the profile is replaced with its fetched body changed, then it reads back; read-only fields are ignored', async () => {
    const user = await createTestUser(api.deps);
    const me = (await request(api.app).get('/me').set('Authorization', user.auth).expect(200)).body;
    const put = await request(api.app)
      .put('/me')
      .set('Authorization', user.auth)
      .send({
        ...me,
        email: 'evil@example.test',
        first_name: 'Grace',
        currency: { main: 'USD' },
        start_day: 15,
        country: 'SI',
        extra: { theme: 'dark' },
      })
      .expect(200);
    expect(put.body).toMatchObject({
      email: me.email,
      first_name: 'Grace',
      currency: { main: 'USD' },
      start_day: 15,
      country: 'SI',
      extra: { theme: 'dark' },
    });
    expect(put.body.modified).not.toBe(me.modified);
    // Omitted optional fields are unset by a PUT.
    const again = await request(api.app)
      .put('/me')
      .set('Authorization', user.auth)
      .send({ modified: put.body.modified, currency: { main: 'USD' } })
      .expect(200);
    expect(again.body).not.toHaveProperty('first_name');
    expect(again.body.start_day).toBe(1);
  });

  it('when the modified is stale, then 409 with the current profile; when missing, 400', async () => {
    const user = await createTestUser(api.deps);
    const me = (await request(api.app).get('/me').set('Authorization', user.auth)).body;
    await request(api.app)
      .put('/me')
      .set('Authorization', user.auth)
      .send({ ...me, first_name: 'One' })
      .expect(200);
    const conflict = await request(api.app)
      .put('/me')
      .set('Authorization', user.auth)
      .send({ ...me, first_name: 'Two' })
      .expect(409);
    expect(conflict.body.current).toMatchObject({ first_name: 'One' });
    await request(api.app)
      .put('/me')
      .set('Authorization', user.auth)
      .send({ currency: { main: 'EUR' } })
      .expect(400);
    const future = await request(api.app)
      .put('/me')
      .set('Authorization', user.auth)
      .send({ ...me, modified: '2999-01-01 00:00:00.000' })
      .expect(400);
    expect(future.body.error_id).toBe('error.modified.invalid');
  });

  it('when fields break the rules or the scope is read-only, then 400 naming them or 403', async () => {
    const user = await createTestUser(api.deps);
    const me = (await request(api.app).get('/me').set('Authorization', user.auth)).body;
    const bad = await request(api.app)
      .put('/me')
      .set('Authorization', user.auth)
      .send({ ...me, currency: { main: 'QQQ' } })
      .expect(400);
    expect(bad.body.fields).toEqual([
      { field: 'currency.main', error: 'must be a known ISO 4217 currency code' },
    ]);
    const badDay = await request(api.app)
      .put('/me')
      .set('Authorization', user.auth)
      .send({ ...me, start_day: 40 })
      .expect(400);
    expect(badDay.body.fields[0].field).toBe('start_day');
    const reader = await createTestUser(api.deps, 'user:r');
    await request(api.app).put('/me').set('Authorization', reader.auth).send(me).expect(403);
  });
});

describe('GET /me/summary', () => {
  it('when entries exist in the period, then sums, counts, daily medians and what is left come in the main currency', async () => {
    const user = await createTestUser(api.deps);
    const category = await createCategory(api.app, user, { name: 'Any', type: 'expense' });
    const account = await postAccount(api.app, user, { name: 'Cash', currency: { code: 'EUR' } });
    const body = [
      { amount: -10, date: '2025-05-01' },
      { amount: -20, date: '2025-05-02' },
      { amount: -30, date: '2025-05-02' },
      { amount: 200, date: '2025-05-03' },
    ].map((item) => ({ ...item, currency: { code: 'EUR' }, account, category }));
    await request(api.app).post('/entries').set('Authorization', user.auth).send(body).expect(201);
    const answer = await request(api.app)
      .get('/me/summary?from=2025-05-01&to=2025-05-04')
      .set('Authorization', user.auth)
      .expect(200);
    expect(answer.body).toEqual({
      from: '2025-05-01',
      to: '2025-05-04',
      currency: { code: 'EUR' },
      // Expense figures are magnitudes (docs/money.md "Signs"). Daily expense totals over the 4 days: 10,
      // 50, 0, 0 → median 5, average 15. All time: the entries span 3 days (1–3 May), so a 4-day period
      // averages 60 × 4/3 and 200 × 4/3. left = incomes − expenses.
      expenses: { sum: 60, sum_planned: 0, count: 3, daily_median: 5, daily_avg: 15, all_time_avg: 80 },
      incomes: { sum: 200, sum_planned: 0, count: 1, daily_median: 0, daily_avg: 50, all_time_avg: 266.67 },
      left: 140,
    });
    const usd = await request(api.app)
      .get('/me/summary?from=2025-05-01&to=2025-05-04&currency=USD')
      .set('Authorization', user.auth)
      .expect(200);
    expect(usd.body.currency).toEqual({ code: 'USD' });
  });

  it('when from or to is missing, or the scopes lack entries, then 400 or 403', async () => {
    const user = await createTestUser(api.deps);
    expect(
      (await request(api.app).get('/me/summary?to=2025-05-04').set('Authorization', user.auth).expect(400))
        .body.fields[0].field,
    ).toBe('from');
    const userOnly = await createTestUser(api.deps, 'user:r');
    await request(api.app)
      .get('/me/summary?from=2025-05-01&to=2025-05-04')
      .set('Authorization', userOnly.auth)
      .expect(403);
  });
});

describe('the me schema', () => {
  it('when /schema/me and /openapi.json are fetched, then PUT /me and GET /me/summary are described', async () => {
    const user = await createTestUser(api.deps);
    const schema = await request(api.app).get('/schema/me').set('Authorization', user.auth).expect(200);
    const links = schema.body.links.map(
      (link: { href: string; targetHints: { allow: string[] } }) =>
        `${link.targetHints.allow[0]} ${link.href}`,
    );
    expect(links).toEqual(expect.arrayContaining(['GET /me', 'PUT /me', 'GET /me/summary']));
    const openapi = await request(api.app).get('/openapi.json').set('Authorization', user.auth).expect(200);
    expect(Object.keys(openapi.body.paths)).toEqual(
      expect.arrayContaining(['/me/summary', '/entries/sums', '/accounts/merge', '/currencies']),
    );
  });
});

describe('main_rate follows the main currency', () => {
  it('when the main currency changes, then entries show the rate to the new one on their dates', async () => {
    const user = await createTestUser(api.deps);
    const category = await createCategory(api.app, user, { name: 'Any', type: 'expense' });
    const account = await postAccount(api.app, user, { name: 'Cash', currency: { code: 'EUR' } });
    const created = await request(api.app)
      .post('/entries')
      .set('Authorization', user.auth)
      .send({ amount: -5, currency: { code: 'EUR' }, date: '2025-05-09', account, category })
      .expect(201);
    const path = new URL(created.headers.location).pathname;
    expect(
      (await request(api.app).get(path).set('Authorization', user.auth).expect(200)).body.currency.main_rate,
    ).toBe(1);
    const me = (await request(api.app).get('/me').set('Authorization', user.auth)).body;
    await request(api.app)
      .put('/me')
      .set('Authorization', user.auth)
      .send({ ...me, currency: { main: 'USD' } })
      .expect(200);
    expect(
      (await request(api.app).get(path).set('Authorization', user.auth).expect(200)).body.currency,
    ).toEqual({
      code: 'EUR',
      rate: 1,
      main_rate: 1.1252,
      fixed: false,
    });
  });
});
