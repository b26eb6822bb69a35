import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTag,
  createTestUser,
  startApiTestApp,
} from '../../support/api-test-app';
import { postAccount, postEntry } from '../ledger/ledger-http';

describe('tags', () => {
  let t: ApiTestApp;
  beforeAll(async () => {
    t = await startApiTestApp();
  });
  afterAll(() => t.close());

  it('when filtered by type, search, ids and categories (empty: none), then only matching tags come back', async () => {
    const who = await createTestUser(t.deps);
    const home = await createCategory(t.app, who, { name: 'Home', type: 'expense' });
    const rent = await createTag(t.app, who, { name: 'rent', type: 'expense', category: home });
    await createTag(t.app, who, { name: 'bonus', type: 'income' });
    const loose = await createTag(t.app, who, { name: 'misc', type: 'expense' });
    const names = async (query: string) =>
      (await request(t.app).get(`/tags?${query}`).set('Authorization', who.auth).expect(200)).body
        .map((tag: { name: string }) => tag.name)
        .sort();
    expect(await names('type=income')).toEqual(['bonus']);
    expect(await names('search=REN')).toEqual(['rent']);
    expect(await names(`ids=${rent},${loose}`)).toEqual(['misc', 'rent']);
    expect(await names(`categories=${home}`)).toEqual(['rent']);
    expect(await names('categories=')).toEqual(['bonus', 'misc']);
  });

  it('when filtered by used_with_tags (with a minimum) and used_with_categories, then tags follow their live entries', async () => {
    const who = await createTestUser(t.deps);
    const account = await postAccount(t.app, who, { name: 'Cash', currency: { code: 'EUR' } });
    const x = await createCategory(t.app, who, { name: 'X', type: 'expense' });
    const y = await createCategory(t.app, who, { name: 'Y', type: 'expense' });
    const tag = async (name: string) => createTag(t.app, who, { name, type: 'expense' });
    const [a, b, c, d] = [await tag('a'), await tag('b'), await tag('c'), await tag('d')];
    await tag('unused');
    const entry = (category: string, tags: string[]) =>
      postEntry(t.app, who, {
        amount: -1,
        currency: { code: 'EUR' },
        date: '2025-05-09',
        account,
        category,
        tags,
      });
    await entry(x, [a, b]);
    await entry(x, [a, c]);
    await entry(y, [a, b]);
    await entry(y, [d]);
    const gone = await entry(x, [a, d]);
    await request(t.app).delete(`/entries/${gone}`).set('Authorization', who.auth).expect(204);
    const names = async (query: string) =>
      (await request(t.app).get(`/tags?${query}`).set('Authorization', who.auth).expect(200)).body
        .map((found: { name: string }) => found.name)
        .sort();
    expect(await names(`used_with_tags=${a}`)).toEqual(['b', 'c']);
    expect(await names(`used_with_tags=${a}&used_with_tags_min=2`)).toEqual(['b']);
    expect(await names(`used_with_tags=${b},${c}`)).toEqual(['a']);
    expect(await names(`used_with_tags=${d}`)).toEqual([]);
    expect(await names(`used_with_categories=${x}`)).toEqual(['a', 'b', 'c']);
    expect(await names(`used_with_categories=${y}&used_with_tags=${b}`)).toEqual(['a']);
    const bad = await request(t.app)
      .get(`/tags?used_with_tags=${a}&used_with_tags_min=0`)
      .set('Authorization', who.auth)
      .expect(400);
    expect(bad.body.fields).toEqual([
      { field: 'used_with_tags_min', error: 'must be an integer of at least 1' },
    ]);
    // Another user naming these tags sees none of this user's usage.
    const stranger = await createTestUser(t.deps);
    await createTag(t.app, stranger, { name: 'theirs', type: 'expense' });
    const theirs = await request(t.app).get(`/tags?used_with_tags=${a}`).set('Authorization', stranger.auth);
    expect(theirs.body).toEqual([]);
  });

  it('when no per_page is given, then tags come 50 a page', async () => {
    const who = await createTestUser(t.deps);
    for (let i = 0; i < 51; i++) await createTag(t.app, who, { name: `t${i}`, type: 'expense' });
    const page = await request(t.app).get('/tags').set('Authorization', who.auth).expect(200);
    expect(page.body).toHaveLength(50);
    expect(page.headers['x-total-count']).toBe('51');
    expect(page.headers.link).toContain('</tags?page=1&per_page=50&cursor=');
  });

  it('when tags are merged into a tag, then the sources are deleted and the target stays', async () => {
    const who = await createTestUser(t.deps);
    const a = await createTag(t.app, who, { name: 'a', type: 'expense' });
    const b = await createTag(t.app, who, { name: 'b', type: 'expense' });
    const keep = await createTag(t.app, who, { name: 'keep', type: 'expense' });
    await request(t.app)
      .post('/tags/merge')
      .set('Authorization', who.auth)
      .send({ tags: [a, b, keep], tag: keep })
      .expect(204);
    const left = await request(t.app).get('/tags').set('Authorization', who.auth).expect(200);
    expect(left.body.map((tag: { id: string }) => tag.id)).toEqual([keep]);
    await request(t.app).delete(`/tags/${a}`).set('Authorization', who.auth).expect(404);
    await request(t.app).delete(`/tags/${keep}`).set('Authorization', who.auth).expect(204);
    await request(t.app).delete(`/tags/${keep}`).set('Authorization', who.auth).expect(404);
  });

  it('when tags are merged into a category, then they are deleted; the category must be the user’s', async () => {
    const who = await createTestUser(t.deps);
    const other = await createTestUser(t.deps);
    const category = await createCategory(t.app, who, { name: 'C', type: 'expense' });
    const foreign = await createCategory(t.app, other, { name: 'F', type: 'expense' });
    const a = await createTag(t.app, who, { name: 'a', type: 'expense' });
    await request(t.app)
      .post('/tags/merge')
      .set('Authorization', who.auth)
      .send({ tags: [a], category: foreign })
      .expect(404);
    await request(t.app)
      .post('/tags/merge')
      .set('Authorization', who.auth)
      .send({ tags: [a], category })
      .expect(204);
    await request(t.app).get(`/tags/${a}`).set('Authorization', who.auth).expect(404);
  });

  it('when a merge names no target or two, or an account, then 400 says why', async () => {
    const who = await createTestUser(t.deps);
    const a = await createTag(t.app, who, { name: 'a', type: 'expense' });
    const none = await request(t.app)
      .post('/tags/merge')
      .set('Authorization', who.auth)
      .send({ tags: [a] })
      .expect(400);
    expect(none.body.fields[0].error).toBe('send exactly one of tag, category or account');
    await request(t.app)
      .post('/tags/merge')
      .set('Authorization', who.auth)
      .send({ tags: [a], tag: a, category: a })
      .expect(400);
    const account = await request(t.app)
      .post('/tags/merge')
      .set('Authorization', who.auth)
      .send({ tags: [a], account: '1' })
      .expect(400);
    expect(account.body.fields[0].field).toBe('account');
  });

  it('when a tag is fetched, then counts hold entries, unsorted_entries and budgets', async () => {
    const who = await createTestUser(t.deps);
    const id = await createTag(t.app, who, { name: 'c', type: 'expense' });
    const tag = await request(t.app).get(`/tags/${id}`).set('Authorization', who.auth).expect(200);
    expect(tag.body).toMatchObject({
      id,
      name: 'c',
      type: 'expense',
      counts: { entries: 0, unsorted_entries: 0, budgets: 0 },
    });
  });
});
