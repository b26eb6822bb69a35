import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTag,
  createTestUser,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';
import { postAccount, postEntry } from './ledger-http';

let api: ApiTestApp;
let user: TestUser;
let account: string;
beforeAll(async () => {
  api = await startApiTestApp();
});
afterAll(() => api.close());
beforeEach(async () => {
  user = await createTestUser(api.deps);
  account = await postAccount(api.app, user, { name: 'Cash', currency: { code: 'EUR' } });
});

const get = (path: string) => request(api.app).get(path).set('Authorization', user.auth).expect(200);
const entry = (category: string, extra: Record<string, unknown> = {}) => ({
  amount: -1,
  currency: { code: 'EUR' },
  date: '2025-05-09',
  account,
  category,
  ...extra,
});

describe('entries in category and tag counts', () => {
  it('when entries use categories and tags, then their counts say how many', async () => {
    const food = await createCategory(api.app, user, { name: 'Food', type: 'expense' });
    const t1 = await createTag(api.app, user, { name: 't1', type: 'expense' });
    const t2 = await createTag(api.app, user, { name: 't2', type: 'expense' });
    await postEntry(api.app, user, entry(food, { tags: [t1, t2] }));
    await postEntry(api.app, user, entry(food, { tags: [t1], amount: 5 }));
    const category = (await get(`/categories/${food}`)).body;
    expect(category.counts).toMatchObject({
      entries: 2,
      expense_entries: 1,
      income_entries: 1,
      tags_used_with_category: 2,
    });
    expect((await get(`/tags/${t1}`)).body.counts).toMatchObject({ entries: 2 });
    expect((await get(`/tags/${t2}`)).body.counts).toMatchObject({ entries: 1 });
  });
});

describe('merging and deleting categories and tags moves entries references', () => {
  it('when categories are merged, then their entries take the target category and sync sees them', async () => {
    const a = await createCategory(api.app, user, { name: 'A', type: 'expense' });
    const b = await createCategory(api.app, user, { name: 'B', type: 'expense' });
    const id = await postEntry(api.app, user, entry(a));
    const since = encodeURIComponent((await get('/entries')).headers['service-modified']);
    await request(api.app)
      .post('/categories/merge')
      .set('Authorization', user.auth)
      .send({ categories: [a], category: b })
      .expect(204);
    expect((await get(`/entries/${id}`)).body.category).toBe(b);
    expect((await get(`/entries?since=${since}`)).body.map((e: { id: string }) => e.id)).toEqual([id]);
  });

  it('when tags are merged or deleted, then entries carry the target tag once, or lose the deleted one', async () => {
    const food = await createCategory(api.app, user, { name: 'Food', type: 'expense' });
    const t1 = await createTag(api.app, user, { name: 't1', type: 'expense' });
    const t2 = await createTag(api.app, user, { name: 't2', type: 'expense' });
    const t3 = await createTag(api.app, user, { name: 't3', type: 'expense' });
    const id = await postEntry(api.app, user, entry(food, { tags: [t1, t2, t3] }));
    await request(api.app)
      .post('/tags/merge')
      .set('Authorization', user.auth)
      .send({ tags: [t1], tag: t2 })
      .expect(204);
    expect((await get(`/entries/${id}`)).body.tags.sort()).toEqual([t2, t3].sort());
    await request(api.app).delete(`/tags/${t3}`).set('Authorization', user.auth).expect(204);
    expect((await get(`/entries/${id}`)).body.tags).toEqual([t2]);
  });

  it('when a category is deleted, then its entries have no category', async () => {
    const food = await createCategory(api.app, user, { name: 'Food', type: 'expense' });
    const id = await postEntry(api.app, user, entry(food));
    await request(api.app).delete(`/categories/${food}`).set('Authorization', user.auth).expect(204);
    expect((await get(`/entries/${id}`)).body).not.toHaveProperty('category');
  });
});
