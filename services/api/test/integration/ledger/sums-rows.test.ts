import request from 'supertest';
import {
  type ApiTestApp,
  createCategory,
  createTag,
  createTestUser,
  startApiTestApp,
  type TestUser,
} from '../../support/api-test-app';
import { postAccount, postEntry } from './ledger-http';

/** What every sums row carries (the reference's sums item) and how the sums lists page. */
let api: ApiTestApp;
let user: TestUser;
let account: string;
let category: string;
beforeAll(async () => {
  api = await startApiTestApp();
});
afterAll(() => api.close());
beforeEach(async () => {
  user = await createTestUser(api.deps);
  account = await postAccount(api.app, user, { name: 'Cash', currency: { code: 'EUR' } });
  category = await createCategory(api.app, user, { name: 'Food', type: 'expense' });
});

const get = (path: string) => request(api.app).get(path).set('Authorization', user.auth);
const post = (amount: number, date: string, extra: Record<string, unknown> = {}) =>
  postEntry(api.app, user, { amount, currency: { code: 'EUR' }, date, account, category, ...extra });
const modifiedOf = async (id: string) => (await get(`/entries/${id}`).expect(200)).body.modified as string;

describe('sums rows', () => {
  it('when a row adds up entries, then its modified is the latest of theirs and moves when one changes', async () => {
    const first = await post(-3, '2025-05-05');
    const second = await post(-4, '2025-05-05');
    const sums = async () =>
      (await get('/entries/sums?from=2025-05-01&to=2025-05-31&currency=EUR').expect(200)).body;
    const latest = [await modifiedOf(first), await modifiedOf(second)].sort().pop();
    expect(await sums()).toEqual([
      { day: '2025-05-05', expenses: { sum: 7, count: 2 }, incomes: { sum: 0, count: 0 }, modified: latest },
    ]);
    const before = (await sums())[0].modified;
    const changed = await request(api.app)
      .patch(`/entries/${first}`)
      .set('Authorization', user.auth)
      .send({ amount: -5, modified: await modifiedOf(first) })
      .expect(200);
    const [row] = await sums();
    expect(row.modified).toBe(changed.body.modified);
    expect(row.modified > before).toBe(true);
    expect(row.expenses).toEqual({ sum: 9, count: 2 });
  });

  it('when entries lose their category, then the category sums hold a row without category, never null', async () => {
    const gone = await createCategory(api.app, user, { name: 'Gone', type: 'expense' });
    const tag = await createTag(api.app, user, { name: 'lunch', type: 'expense' });
    await post(-2, '2025-05-06', { category: gone, tags: [tag] });
    await post(-1, '2025-05-06');
    await request(api.app).delete(`/categories/${gone}`).set('Authorization', user.auth).expect(204);
    const answer = await get('/categories/sums?from=2025-05-01&to=2025-05-31&currency=EUR').expect(200);
    expect(answer.text).not.toContain('null');
    expect(answer.body).toEqual([
      { expenses: { sum: 2, count: 1 }, incomes: { sum: 0, count: 0 }, modified: expect.any(String) },
      {
        category,
        expenses: { sum: 1, count: 1 },
        incomes: { sum: 0, count: 0 },
        modified: expect.any(String),
      },
    ]);
    const tags = await get('/tags/sums?from=2025-05-01&to=2025-05-31&currency=EUR').expect(200);
    expect(tags.text).not.toContain('null');
    expect(tags.body).toEqual([expect.objectContaining({ tag, expenses: { sum: 2, count: 1 } })]);
  });

  it('when there are more rows than per_page, then /entries/sums pages them with Link and X-Total-Count', async () => {
    const days = Array.from({ length: 12 }, (_, n) => `2025-05-${String(n + 1).padStart(2, '0')}`);
    const body = days.map((date) => ({ amount: -1, currency: { code: 'EUR' }, date, account, category }));
    await request(api.app).post('/entries').set('Authorization', user.auth).send(body).expect(201);
    const query = 'from=2025-05-01&to=2025-05-31&currency=EUR';
    const first = await get(`/entries/sums?${query}&per_page=10`).expect(200);
    expect(first.headers['x-total-count']).toBe('12');
    expect(first.body.map((row: { day: string }) => row.day)).toEqual(days.slice(0, 10));
    expect(first.headers.link).toBe(
      `</entries/sums?page=0&per_page=10&${query}>; rel="first", ` +
        `</entries/sums?page=1&per_page=10&${query}>; rel="next", ` +
        `</entries/sums?page=1&per_page=10&${query}>; rel="last"`,
    );
    const second = await get(`/entries/sums?page=1&per_page=10&${query}`).expect(200);
    expect(second.body.map((row: { day: string }) => row.day)).toEqual(days.slice(10));
    expect((await get(`/entries/sums?${query}&page=5&per_page=10`).expect(200)).body).toEqual([]);
    for (const perPage of ['9', '501', 'x']) {
      const refused = await get(`/entries/sums?${query}&per_page=${perPage}`).expect(400);
      expect(refused.body.fields[0].field).toBe('per_page');
    }
    // No page parameters: every row of the period on the default page of 200.
    expect((await get(`/entries/sums?${query}`).expect(200)).body).toHaveLength(12);
  });

  it('when the published contract is read, then these derived lists declare paging but no since', async () => {
    const openapi = (await request(api.app).get('/openapi.json').expect(200)).body;
    for (const path of ['/entries/sums', '/tags/sums', '/categories/sums', '/entries/timeline']) {
      const names = openapi.paths[path].get.parameters.map((parameter: { name: string }) => parameter.name);
      expect(names).toEqual(expect.arrayContaining(['page', 'per_page', 'from', 'to']));
      expect(names).not.toContain('since');
      const schema = openapi.paths[path].get.responses['200'].content['application/vnd.service+json'].schema;
      expect(schema).toMatchObject({ type: 'array', items: { type: 'object' } });
    }
    const row =
      openapi.paths['/entries/sums'].get.responses['200'].content['application/vnd.service+json'].schema
        .items;
    expect(row.required).toEqual(['day', 'expenses', 'incomes', 'modified']);
    expect(row.properties.expenses.properties.sum.minimum).toBe(0);
    const hyper = (await request(api.app).get('/schema/entries').expect(200)).body;
    const timeline = hyper.links.find((link: { rel: string }) => link.rel === 'timeline');
    expect(timeline.hrefSchema.required).toEqual(['from', 'to']);
  });
});
