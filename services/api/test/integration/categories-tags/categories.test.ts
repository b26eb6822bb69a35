import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTag,
  createTestUser,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';

describe('categories', () => {
  let t: ApiTestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await startApiTestApp();
    user = await createTestUser(t.deps);
  });
  afterAll(() => t.close());

  const list = (query: string, who = user) =>
    request(t.app).get(`/categories?${query}`).set('Authorization', who.auth).expect(200);
  const names = (answer: request.Response) => answer.body.map((c: { name: string }) => c.name).sort();

  it('when filtered by type, search and ids, then only matching categories come back', async () => {
    const who = await createTestUser(t.deps);
    const food = await createCategory(t.app, who, { name: 'Food & Drinks', type: 'expense' });
    await createCategory(t.app, who, { name: 'Salary', type: 'income' });
    const fun = await createCategory(t.app, who, { name: 'Fun_stuff 100%', type: 'expense' });
    expect(names(await list('type=income', who))).toEqual(['Salary']);
    expect(names(await list('search=drink', who))).toEqual(['Food & Drinks']);
    expect(names(await list('search=100%25', who))).toEqual(['Fun_stuff 100%']);
    expect(names(await list('search=_', who))).toEqual(['Fun_stuff 100%']);
    expect(names(await list(`ids=${food},${fun}`, who))).toEqual(['Food & Drinks', 'Fun_stuff 100%']);
    const badType = await request(t.app)
      .get('/categories?type=gift')
      .set('Authorization', who.auth)
      .expect(400);
    expect(badType.body.fields).toEqual([{ field: 'type', error: 'must be one of expense, income, system' }]);
    await request(t.app).get('/categories?ids=1,abc').set('Authorization', who.auth).expect(400);
  });

  it("when another user lists, then none of this user's categories appear", async () => {
    const other = await createTestUser(t.deps);
    await createCategory(t.app, user, { name: 'Mine', type: 'expense' });
    expect((await list('', other)).body).toEqual([]);
  });

  it('when categories are listed, then counts hold every key, with tags counted by type', async () => {
    const who = await createTestUser(t.deps);
    const id = await createCategory(t.app, who, { name: 'Home', type: 'expense' });
    await createTag(t.app, who, { name: 'rent', type: 'expense', category: id });
    await createTag(t.app, who, { name: 'refund', type: 'income', category: id });
    const [category] = (await list('', who)).body;
    expect(category.counts).toEqual({
      entries: 0,
      income_entries: 0,
      expense_entries: 0,
      tags_used_with_category: 0,
      income_tags_used_with_category: 0,
      expense_tags_used_with_category: 0,
      tags: 2,
      income_tags: 1,
      expense_tags: 1,
      budgets: 0,
    });
    // Counts are remembered per watermark: the next write shows at once.
    await createTag(t.app, who, { name: 'deposit', type: 'income', category: id });
    expect((await list('', who)).body[0].counts).toMatchObject({ tags: 3, income_tags: 2 });
  });

  it('when categories are merged, then their tags move to the target and the sources are deleted', async () => {
    const who = await createTestUser(t.deps);
    const a = await createCategory(t.app, who, { name: 'A', type: 'expense' });
    const b = await createCategory(t.app, who, { name: 'B', type: 'expense' });
    const target = await createCategory(t.app, who, { name: 'T', type: 'expense' });
    const tag = await createTag(t.app, who, { name: 'x', type: 'expense', category: a });
    const before = await list('', who);
    await request(t.app)
      .post('/categories/merge')
      .set('Authorization', who.auth)
      .send({ categories: [a, b], category: target })
      .expect(204);
    expect(names(await list('', who))).toEqual(['T']);
    const moved = await request(t.app).get(`/tags/${tag}`).set('Authorization', who.auth).expect(200);
    expect(moved.body.category).toBe(target);
    const sync = await list(
      `since=${encodeURIComponent(before.headers['service-modified'])}&include_deleted=true`,
      who,
    );
    expect(
      sync.body
        .filter((c: { deleted?: boolean }) => c.deleted)
        .map((c: { id: string }) => c.id)
        .sort(),
    ).toEqual([a, b].sort());
    // The moved tag can still be updated from the state the client saw before the merge.
    const tagSeen = moved.body;
    await request(t.app)
      .put(`/tags/${tag}`)
      .set('Authorization', who.auth)
      .send({ ...tagSeen, name: 'y' })
      .expect(200);
  });

  it('when a merge names a missing or foreign category, then 404; a malformed body is 400', async () => {
    const who = await createTestUser(t.deps);
    const other = await createTestUser(t.deps);
    const mine = await createCategory(t.app, who, { name: 'M', type: 'expense' });
    const theirs = await createCategory(t.app, other, { name: 'O', type: 'expense' });
    await request(t.app)
      .post('/categories/merge')
      .set('Authorization', who.auth)
      .send({ categories: [theirs], category: mine })
      .expect(404);
    const bad = await request(t.app)
      .post('/categories/merge')
      .set('Authorization', who.auth)
      .send({ categories: [], category: mine })
      .expect(400);
    expect(bad.body.fields[0].field).toBe('categories');
    expect((await list('', other)).body).toHaveLength(1);
  });

  it('when a category is deleted, then tags under it lose their category', async () => {
    const who = await createTestUser(t.deps);
    const id = await createCategory(t.app, who, { name: 'Old', type: 'expense' });
    const tag = await createTag(t.app, who, { name: 'old-tag', type: 'expense', category: id });
    await request(t.app).delete(`/categories/${id}`).set('Authorization', who.auth).expect(204);
    const after = await request(t.app).get(`/tags/${tag}`).set('Authorization', who.auth).expect(200);
    expect(after.body).not.toHaveProperty('category');
  });
});
