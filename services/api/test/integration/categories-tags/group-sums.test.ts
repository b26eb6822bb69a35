import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTag,
  createTestUser,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';
import { postAccount, postEntry } from '../ledger/ledger-http';

let api: ApiTestApp;
let user: TestUser;
beforeAll(async () => {
  api = await startApiTestApp();
});
afterAll(() => api.close());
beforeEach(async () => {
  user = await createTestUser(api.deps);
});

describe('GET /tags/sums and /categories/sums', () => {
  it('when entries carry tags and categories, then each gets its exact expense and income sums, largest first', async () => {
    const account = await postAccount(api.app, user, { name: 'Cash', currency: { code: 'EUR' } });
    const food = await createCategory(api.app, user, { name: 'Food', type: 'expense' });
    const pay = await createCategory(api.app, user, { name: 'Pay', type: 'income' });
    const lunch = await createTag(api.app, user, { name: 'lunch', type: 'expense' });
    const work = await createTag(api.app, user, { name: 'work', type: 'expense' });
    const post = (amount: number, category: string, tags: string[], date = '2025-05-09', code = 'EUR') =>
      postEntry(api.app, user, { amount, currency: { code }, date, account, category, tags });
    await post(-0.1, food, [lunch]);
    await post(-0.2, food, [lunch, work]);
    await post(1000, pay, [work]);
    await post(-50, food, [], '2025-06-01');
    await post(-10, food, [lunch], '2025-05-09', 'USD');
    const sums = async (path: string) =>
      await request(api.app).get(path).set('Authorization', user.auth).expect(200);
    const tags = await sums('/tags/sums?from=2025-05-01&to=2025-05-31&currency=EUR');
    expect(tags.headers['x-total-count']).toBe('2');
    // The reference's sums item: no currency, expense sums as magnitudes, the row's latest modified.
    expect(tags.body[0]).toEqual({
      tag: work,
      expenses: { sum: 0.2, count: 1 },
      incomes: { sum: 1000, count: 1 },
      modified: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/),
    });
    // lunch: 0.1 + 0.2 exactly, plus 10 USD converted with the ECB rate of 2025-05-09 (1 EUR = 1.1252 USD).
    expect(tags.body[1].tag).toBe(lunch);
    expect(tags.body[1].expenses).toEqual({ sum: 9.19, count: 3 });
    const categories = await sums('/categories/sums?from=2025-05-01&to=2025-06-30&currency=EUR');
    expect(categories.body.map((item: { category: string }) => item.category)).toEqual([pay, food]);
    expect(categories.body[1].expenses).toEqual({ sum: 59.19, count: 4 });
    const filtered = await sums(`/categories/sums?from=2025-05-01&to=2025-06-30&currency=EUR&tags=${work}`);
    expect(filtered.body.map((item: { category: string }) => item.category)).toEqual([pay, food]);
    expect(filtered.body[1].expenses).toEqual({ sum: 0.2, count: 1 });
  });

  it('when parameters are missing or the scope lacks entries:r, then 400 or 403; another user sees nothing', async () => {
    const get = (path: string, who = user) => request(api.app).get(path).set('Authorization', who.auth);
    expect((await get('/tags/sums?from=2025-05-01&to=2025-05-31').expect(400)).body.fields).toEqual([
      { field: 'currency', error: 'is required' },
    ]);
    expect((await get('/tags/sums?to=2025-05-31&currency=EUR').expect(400)).body.fields).toEqual([
      { field: 'from', error: 'is required' },
    ]);
    expect(
      (await get('/categories/sums?from=2025-05-01&to=2025-05-31&currency=XXY').expect(400)).body.fields,
    ).toEqual([{ field: 'currency', error: 'must be a known ISO 4217 currency code' }]);
    const tagsOnly = await createTestUser(api.deps, 'tags:r');
    await get('/tags/sums?from=2025-05-01&to=2025-05-31&currency=EUR', tagsOnly).expect(403);
    const stranger = await createTestUser(api.deps);
    expect(
      (await get('/tags/sums?from=2025-01-01&to=2025-12-31&currency=EUR', stranger).expect(200)).body,
    ).toEqual([]);
  });
});
