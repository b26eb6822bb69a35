import request from 'supertest';
import {
  type ApiTestApp,
  createCategory,
  createTestUser,
  startApiTestApp,
  type TestUser,
} from '../../support/api-test-app';
import { budgetBody, postBudget } from '../budgets/budgets-http';
import { idFromLocation, postAccount } from '../ledger/ledger-http';

/**
 * Requests exactly as existing Toshl clients send them (bodies byte for byte, as raw JSON text): budget lists
 * without dates, budget writes in the legacy `start`/`period`/`frequency` shape, PUTs from models without
 * `recurrence`, and timelines without `type`.
 */
let api: ApiTestApp;
beforeAll(async () => {
  api = await startApiTestApp();
});
afterAll(() => api.close());

const today = () => new Date().toISOString().slice(0, 10);
const get = (user: TestUser, path: string) => request(api.app).get(path).set('Authorization', user.auth);
const sendRaw = (user: TestUser, method: 'post' | 'put', path: string, body: string) => {
  const agent = request(api.app);
  return (method === 'post' ? agent.post(path) : agent.put(path))
    .set('Authorization', user.auth)
    .set('Content-Type', 'application/json')
    .send(body);
};

describe('compatibility: GET /budgets as clients list it', () => {
  async function userWithBudgets() {
    const user = await createTestUser(api.deps);
    const monthly = await postBudget(api.app, user, budgetBody({ name: 'Monthly' }));
    const ended = await postBudget(
      api.app,
      user,
      budgetBody({
        name: 'Ended',
        recurrence: { frequency: 'monthly', start: '2025-05-01', end: '2025-05-31' },
      }),
    );
    return { user, monthly, ended };
  }

  it('when no dates are sent, then 200 with each live budget at the iteration holding today', async () => {
    const { user, monthly } = await userWithBudgets();
    const answer = await get(user, '/budgets').expect(200);
    expect(answer.body.map((item: { id: string }) => item.id)).toEqual([monthly]);
    expect(answer.body[0].from <= today() && today() <= answer.body[0].to).toBe(true);
    expect(answer.headers['x-total-count']).toBe('1');
    expect(answer.headers.link).toBe(
      '</budgets?page=0&per_page=200>; rel="first", </budgets?page=0&per_page=200>; rel="last"',
    );
    // The paging parameters alone (toshl-go sends only those) list the same.
    const paged = await get(user, '/budgets?page=0&per_page=50').expect(200);
    expect(paged.body.map((item: { id: string }) => item.id)).toEqual([monthly]);
  });

  it('when only to (or only from) is sent, then each budget comes at its iteration holding that day', async () => {
    const { user, monthly, ended } = await userWithBudgets();
    const onlyTo = await get(user, '/budgets?to=2025-05-20').expect(200);
    expect(
      onlyTo.body
        .map((item: { id: string; from: string; to: string }) => [item.id, item.from, item.to])
        .sort(),
    ).toEqual(
      [
        [monthly, '2025-05-01', '2025-05-31'],
        [ended, '2025-05-01', '2025-05-31'],
      ].sort(),
    );
    const onlyFrom = await get(user, '/budgets?from=2025-06-15').expect(200);
    expect(onlyFrom.body).toEqual([
      expect.objectContaining({ id: monthly, from: '2025-06-01', to: '2025-06-30' }),
    ]);
    expect((await get(user, '/budgets?to=2025-13-01').expect(400)).body.fields).toEqual([
      { field: 'to', error: expect.any(String) },
    ]);
  });
});

describe('compatibility: budget writes in the legacy shape', () => {
  it('when a budget is created with start, period and frequency, then they become its recurrence', async () => {
    const user = await createTestUser(api.deps);
    const created = await sendRaw(
      user,
      'post',
      '/budgets',
      '{"name":"Groceries","limit":250,"currency":{"code":"EUR"},"start":"2025-05-01","period":"monthly","frequency":1,"type":"regular"}',
    ).expect(201);
    const id = idFromLocation(created.headers.location);
    const got = await get(user, `/budgets/${id}`).expect(200);
    expect(got.body.recurrence).toMatchObject({ frequency: 'monthly', interval: 1, start: '2025-05-01' });
    expect(got.body.limit).toBe(250);

    const weekly = await sendRaw(
      user,
      'post',
      '/budgets',
      '{"name":"Coffee","limit":20,"currency":{"code":"EUR"},"start":"2025-05-05","period":2,"frequency":"week","type":"regular"}',
    ).expect(201);
    const weeklyBody = (await get(user, `/budgets/${idFromLocation(weekly.headers.location)}`).expect(200))
      .body;
    expect(weeklyBody.recurrence).toMatchObject({ frequency: 'weekly', interval: 2, start: '2025-05-05' });
  });

  it('when period or frequency is a zero placeholder, then it counts as unset', async () => {
    const user = await createTestUser(api.deps);
    const created = await sendRaw(
      user,
      'post',
      '/budgets',
      '{"name":"Rent","limit":900,"currency":{"code":"EUR"},"start":"2025-05-01","period":"monthly","frequency":0,"type":"regular"}',
    ).expect(201);
    expect(created.body.recurrence).toMatchObject({ frequency: 'monthly', start: '2025-05-01' });
    const weekly = await sendRaw(
      user,
      'post',
      '/budgets',
      '{"name":"Fuel","limit":60,"currency":{"code":"EUR"},"start":"2025-05-05","period":0,"frequency":"weekly","interval":0,"type":"regular"}',
    ).expect(201);
    expect(weekly.body.recurrence).toMatchObject({ frequency: 'weekly', start: '2025-05-05' });
    const id = idFromLocation(created.headers.location);
    const put = await sendRaw(
      user,
      'put',
      `/budgets/${id}`,
      `{"name":"Rent","limit":950,"currency":{"code":"EUR"},"start":"","period":"0","frequency":0,"type":"regular","modified":"${created.body.modified}"}`,
    ).expect(200);
    expect(put.body.recurrence).toEqual(created.body.recurrence);
    expect(put.body.limit).toBe(950);
  });

  it('when the legacy fields are wrong or missing, then 400 names them', async () => {
    const user = await createTestUser(api.deps);
    const fields = async (body: string) =>
      (await sendRaw(user, 'post', '/budgets', body).expect(400)).body.fields;
    expect(
      await fields(
        '{"name":"A","limit":1,"currency":{"code":"EUR"},"start":"2025-05-01","period":"fortnightly","type":"regular"}',
      ),
    ).toEqual([{ field: 'period', error: expect.stringContaining('monthly') }]);
    expect(
      await fields('{"name":"A","limit":1,"currency":{"code":"EUR"},"period":"monthly","type":"regular"}'),
    ).toEqual([{ field: 'start', error: expect.stringContaining('required') }]);
    expect(
      await fields(
        '{"name":"A","limit":1,"currency":{"code":"EUR"},"start":"2025-05-01","period":"monthly","frequency":"weekly","type":"regular"}',
      ),
    ).toEqual([{ field: 'frequency', error: expect.stringContaining('contradicts') }]);
  });

  it('when a PUT omits recurrence, then the stored one stays; legacy fields on a PUT change what they name', async () => {
    const user = await createTestUser(api.deps);
    const id = await postBudget(
      api.app,
      user,
      budgetBody({ recurrence: { frequency: 'monthly', interval: 1, start: '2025-05-01', bymonthday: '5' } }),
    );
    const { modified } = (await get(user, `/budgets/${id}`).expect(200)).body;
    const kept = await sendRaw(
      user,
      'put',
      `/budgets/${id}`,
      `{"id":"${id}","name":"Food","limit":400,"currency":{"code":"EUR"},"type":"regular","modified":"${modified}"}`,
    ).expect(200);
    expect(kept.body.limit).toBe(400);
    expect(kept.body.recurrence).toMatchObject({
      frequency: 'monthly',
      interval: 1,
      start: '2025-05-01',
      bymonthday: '5',
    });

    const moved = await sendRaw(
      user,
      'put',
      `/budgets/${id}`,
      `{"id":"${id}","name":"Food","limit":400,"currency":{"code":"EUR"},"start":"2025-06-02","period":"weekly","frequency":1,"type":"regular","modified":"${kept.body.modified}"}`,
    ).expect(200);
    expect(moved.body.recurrence).toMatchObject({
      frequency: 'weekly',
      interval: 1,
      start: '2025-06-02',
      bymonthday: '5',
    });
  });
});

describe('compatibility: GET /entries/timeline without type', () => {
  it('when type is not sent, then expenses and incomes both come, transfers not, and sum is the net', async () => {
    const user = await createTestUser(api.deps);
    const category = await createCategory(api.app, user, { name: 'Any', type: 'expense' });
    const eur = await postAccount(api.app, user, { name: 'EUR', currency: { code: 'EUR' } });
    const other = await postAccount(api.app, user, { name: 'Other', currency: { code: 'EUR' } });
    const entries = [
      { amount: -10.25, date: '2025-03-03' },
      { amount: 100, date: '2025-03-03' },
      { amount: -4, date: '2025-03-04' },
      { amount: -50, date: '2025-03-03', transaction: { account: other } },
    ].map((entry) => ({ ...entry, currency: { code: 'EUR' }, account: eur, category }));
    await request(api.app).post('/entries').set('Authorization', user.auth).send(entries).expect(201);

    const both = await get(user, '/entries/timeline?from=2025-03-01&to=2025-03-31').expect(200);
    expect(
      both.body.map((group: { day: string; sum: number; count: number }) => [
        group.day,
        group.sum,
        group.count,
      ]),
    ).toEqual([
      ['2025-03-03', 89.75, 2],
      ['2025-03-04', -4, 1],
    ]);
    expect(both.body[0].entries.map((entry: { amount: number }) => entry.amount).sort()).toEqual([
      -10.25, 100,
    ]);
    const expenses = await get(user, '/entries/timeline?from=2025-03-01&to=2025-03-31&type=expense').expect(
      200,
    );
    expect(expenses.body.map((group: { sum: number }) => group.sum)).toEqual([10.25, 4]);
  });
});

describe('compatibility: the published budget contract says what the routes do', () => {
  it('when /openapi.json and /schema/budgets are read, then dates are optional, history is a 200 list and legacy writes are declared', async () => {
    const openapi = (await request(api.app).get('/openapi.json').expect(200)).body;
    const history = openapi.paths['/budgets/{id}/history'].get.responses;
    expect(history).not.toHaveProperty('204');
    expect(history['200'].content['application/vnd.service+json'].schema).toMatchObject({
      type: 'array',
      items: { type: 'object', required: expect.arrayContaining(['budget_id', 'from', 'to', 'amount']) },
    });
    const create = openapi.paths['/budgets'].post.requestBody.content['application/json'].schema;
    expect(create.required).not.toContain('recurrence');
    expect(create.anyOf).toEqual([{ required: ['recurrence'] }, { required: ['start'] }]);
    expect(Object.keys(create.properties)).toEqual(expect.arrayContaining(['start', 'period', 'frequency']));
    const hyper = (await request(api.app).get('/schema/budgets').expect(200)).body;
    const links = Object.fromEntries(hyper.links.map((link: { rel: string }) => [link.rel, link]));
    expect(links.list.hrefSchema.required).toBeUndefined();
    expect(links.history.hrefSchema.required).toEqual(['to']);
  });
});
