import request from 'supertest';
import { ApiTestApp, createCategory, createTestUser, startApiTestApp } from '../../support/api-test-app';
import { postAccount } from '../ledger/ledger-http';
import { budgetBody, listBudgets, postBudget, postEntries } from './budgets-http';

let api: ApiTestApp;
beforeAll(async () => {
  api = await startApiTestApp();
});
afterAll(() => api.close());

const RANGE = 'from=2025-05-01&to=2025-05-31';

describe('budgets: sync, pagination and caching', () => {
  it('when budgets change after a Service-Modified, then since returns only those; pages follow Link', async () => {
    const user = await createTestUser(api.deps);
    const ids: string[] = [];
    for (let n = 0; n < 12; n++) ids.push(await postBudget(api.app, user, budgetBody({ name: `B${n}` })));
    const first = await listBudgets(api.app, user, `${RANGE}&per_page=10`).expect(200);
    expect(first.body).toHaveLength(10);
    expect(first.headers['x-total-count']).toBe('12');
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link)![1];
    const second = await request(api.app).get(next).set('Authorization', user.auth).expect(200);
    expect(second.body).toHaveLength(2);
    expect(new Set([...first.body, ...second.body].map((item: { id: string }) => item.id)).size).toBe(12);
    const since = encodeURIComponent(first.headers['service-modified']);
    const fetched = (await request(api.app).get(`/budgets/${ids[3]}`).set('Authorization', user.auth)).body;
    await request(api.app)
      .put(`/budgets/${ids[3]}`)
      .set('Authorization', user.auth)
      .send({ ...fetched, name: 'changed' })
      .expect(200);
    await request(api.app).delete(`/budgets/${ids[4]}`).set('Authorization', user.auth).expect(204);
    const changes = await listBudgets(api.app, user, `${RANGE}&since=${since}&include_deleted=true`).expect(
      200,
    );
    expect(
      changes.body.map((item: { id: string; deleted?: boolean }) => [item.id, item.deleted ?? false]),
    ).toEqual(
      expect.arrayContaining([
        [ids[3], false],
        [ids[4], true],
      ]),
    );
    expect(changes.body).toHaveLength(2);
  });

  it('when an entry changes what a budget adds up, then its ETag changes and a conditional GET is not a 304', async () => {
    const user = await createTestUser(api.deps);
    const food = await createCategory(api.app, user, { name: 'Food', type: 'expense' });
    const account = await postAccount(api.app, user, { name: 'Cash', currency: { code: 'EUR' } });
    const id = await postBudget(
      api.app,
      user,
      budgetBody({ recurrence: { frequency: 'monthly', start: '2000-01-01' } }),
    );
    const before = await request(api.app).get(`/budgets/${id}`).set('Authorization', user.auth).expect(200);
    await request(api.app)
      .get(`/budgets/${id}`)
      .set('Authorization', user.auth)
      .set('If-None-Match', before.headers.etag)
      .expect(304);
    await postEntries(api.app, user, [
      { amount: -9, date: before.body.from, currency: { code: 'EUR' }, account, category: food },
    ]);
    const after = await request(api.app)
      .get(`/budgets/${id}`)
      .set('Authorization', user.auth)
      .set('If-None-Match', before.headers.etag)
      .expect(200);
    expect(after.body.amount).toBe(9);
    expect(after.headers).not.toHaveProperty('last-modified');
  });

  it('when the schema is asked, then /schema/budgets describes every route; other methods are 405', async () => {
    const user = await createTestUser(api.deps);
    const schema = await request(api.app).get('/schema/budgets').set('Authorization', user.auth).expect(200);
    const links = schema.body.links.map(
      (link: { href: string; targetHints: { allow: string[] } }) =>
        `${link.targetHints.allow[0]} ${link.href}`,
    );
    expect(links).toEqual(
      expect.arrayContaining([
        'GET /budgets',
        'POST /budgets',
        'GET /budgets/{id}',
        'PUT /budgets/{id}',
        'PATCH /budgets/{id}',
        'DELETE /budgets/{id}',
        'GET /budgets/{id}/history',
        'POST /budgets/{id}/move',
        'POST /budgets/reorder',
      ]),
    );
    const id = await postBudget(api.app, user, budgetBody());
    const refused = await request(api.app).post(`/budgets/${id}`).set('Authorization', user.auth).send({});
    expect(refused.status).toBe(405);
  });
});
