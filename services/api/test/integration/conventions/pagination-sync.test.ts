import { keysMatching } from '@pfs/redis';
import { categoriesTable } from '@pfs/resource-store';
import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTag,
  createTestUser,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';

/** Follows `rel="next"` from `path` and returns every body item and the headers of the first page. */
export async function collectPages(t: ApiTestApp, user: TestUser, path: string) {
  const items: Array<Record<string, unknown>> = [];
  let next: string | undefined = path;
  let first: Record<string, string> | undefined;
  while (next) {
    const answer: request.Response = await request(t.app)
      .get(next)
      .set('Authorization', user.auth)
      .expect(200);
    first ??= answer.headers as Record<string, string>;
    items.push(...answer.body);
    next = /<([^>]+)>; rel="next"/.exec(answer.headers.link ?? '')?.[1];
  }
  return { items, first: first! };
}

describe('pagination and sync', () => {
  let t: ApiTestApp;
  beforeAll(async () => {
    t = await startApiTestApp();
  });
  afterAll(() => t.close());

  it('when page or per_page break their rules, then 400 names the field and the rule', async () => {
    const user = await createTestUser(t.deps);
    const cases: Array<[string, string, string]> = [
      ['per_page=9', 'per_page', 'must be at least 10'],
      ['per_page=501', 'per_page', 'must be at most 500'],
      ['per_page=ten', 'per_page', 'must be an integer'],
      ['page=-1', 'page', 'must be at least 0'],
      ['include_deleted=maybe', 'include_deleted', 'must be true or false'],
    ];
    for (const [query, field, error] of cases) {
      const answer = await request(t.app)
        .get(`/categories?${query}`)
        .set('Authorization', user.auth)
        .expect(400);
      expect(answer.body).toMatchObject({ error_id: 'error.input', fields: [{ field, error }] });
    }
  });

  it('when a list has several pages, then Link has the exact relative form and X-Total-Count the total', async () => {
    const user = await createTestUser(t.deps);
    for (let i = 0; i < 25; i++) await createCategory(t.app, user, { name: `c${i}`, type: 'expense' });
    const answer = await request(t.app)
      // A parameter the list does not declare is not copied into the links (docs/conventions.md).
      .get('/categories?type=expense&per_page=10&page=1&unknown=dropped')
      .set('Authorization', user.auth)
      .expect(200);
    expect(answer.headers['x-total-count']).toBe('25');
    expect(answer.body).toHaveLength(10);
    const links = answer.headers.link.split(', ');
    expect(links[0]).toBe('</categories?page=0&per_page=10&type=expense>; rel="first"');
    expect(links[1]).toBe('</categories?page=0&per_page=10&type=expense>; rel="previous"');
    expect(links[2]).toMatch(/^<\/categories\?page=2&per_page=10&type=expense&cursor=[^>]+>; rel="next"$/);
    expect(links[3]).toBe('</categories?page=2&per_page=10&type=expense>; rel="last"');
    const names = answer.body.map((c: { name: string }) => c.name);
    expect(names[0]).toBe('c14');
    const last = await request(t.app).get('/categories?page=2&per_page=10').set('Authorization', user.auth);
    expect(last.body).toHaveLength(5);
    expect(last.headers.link).not.toContain('rel="next"');
  });

  it('when objects change while a client follows Link, then no unchanged object is skipped and the next sync brings the changes', async () => {
    const user = await createTestUser(t.deps);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++)
      ids.push(await createCategory(t.app, user, { name: `n${i}`, type: 'expense' }));
    const page0 = await request(t.app)
      .get('/categories?per_page=10')
      .set('Authorization', user.auth)
      .expect(200);
    const watermark = page0.headers['service-modified'];
    // Between pages: delete two unseen objects and change one already seen.
    await request(t.app).delete(`/categories/${ids[5]}`).set('Authorization', user.auth).expect(204);
    await request(t.app).delete(`/categories/${ids[6]}`).set('Authorization', user.auth).expect(204);
    const seen = page0.body[0];
    await request(t.app)
      .put(`/categories/${seen.id}`)
      .set('Authorization', user.auth)
      .send({ ...seen, name: 'renamed' });
    const rest = await collectPages(t, user, /<([^>]+)>; rel="next"/.exec(page0.headers.link)![1]);
    expect(rest.first['service-modified']).toBe(watermark);
    const got = new Set([...page0.body, ...rest.items].map((c: Record<string, unknown>) => c.id));
    const expected = ids.filter((id) => id !== ids[5] && id !== ids[6]);
    expect(expected.every((id) => got.has(id))).toBe(true);
    const sync = await request(t.app)
      .get(`/categories?since=${encodeURIComponent(watermark)}&include_deleted=true`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(sync.body.map((c: { id: string }) => c.id).sort()).toEqual([ids[5], ids[6], seen.id].sort());
    expect(sync.body.find((c: { id: string }) => c.id === seen.id).name).toBe('renamed');
  });

  it('when objects already seen are deleted while a client pages, then Link still leads to every remaining one', async () => {
    const user = await createTestUser(t.deps);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++)
      ids.push(await createCategory(t.app, user, { name: `d${i}`, type: 'expense' }));
    const page0 = await request(t.app)
      .get('/categories?per_page=10')
      .set('Authorization', user.auth)
      .expect(200);
    for (const seen of page0.body) {
      await request(t.app).delete(`/categories/${seen.id}`).set('Authorization', user.auth).expect(204);
    }
    const rest = await collectPages(t, user, /<([^>]+)>; rel="next"/.exec(page0.headers.link)![1]);
    expect(rest.items).toHaveLength(20);
  });

  it('when since is made up, from another endpoint or another user, then 400', async () => {
    const user = await createTestUser(t.deps);
    const other = await createTestUser(t.deps);
    await createTag(t.app, user, { name: 't', type: 'expense' });
    const tags = await request(t.app).get('/tags').set('Authorization', user.auth).expect(200);
    const mine = await request(t.app).get('/categories').set('Authorization', user.auth).expect(200);
    for (const since of [
      '2026-01-01 00:00:00.000',
      tags.headers['service-modified'],
      '5.AAAAAAAAAAAAAAAAAAAAAA',
    ]) {
      const answer = await request(t.app)
        .get(`/categories?since=${encodeURIComponent(since)}`)
        .set('Authorization', user.auth)
        .expect(400);
      expect(answer.body).toMatchObject({
        error_id: 'error.sync.since_invalid',
        fields: [{ field: 'since' }],
      });
    }
    await request(t.app)
      .get(`/categories?since=${encodeURIComponent(mine.headers['service-modified'])}`)
      .set('Authorization', other.auth)
      .expect(400);
    const ok = await request(t.app)
      .get(`/categories?since=${encodeURIComponent(mine.headers['service-modified'])}`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(ok.body).toEqual([]);
  });

  it('when a write commits after a list read its watermark, then the next since-sync returns it', async () => {
    const user = await createTestUser(t.deps);
    await createCategory(t.app, user, { name: 'before', type: 'expense' });
    // An open write transaction holding change number N (not yet committed)…
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    let inserted!: (id: string) => void;
    const pendingId = new Promise<string>((resolve) => (inserted = resolve));
    const change = t.deps.store.change({ userId: user.userId }, async (open) => {
      inserted((await categoriesTable.insert(open, { name: 'late', type: 'expense' })).id);
      await held;
    });
    try {
      const pending = { id: await pendingId };
      // …a sync in the meantime neither waits for it nor reports a watermark covering it.
      const during = await request(t.app).get('/categories').set('Authorization', user.auth).expect(200);
      expect(during.body.map((c: { name: string }) => c.name)).toEqual(['before']);
      commit();
      await change;
      const after = await request(t.app)
        .get(`/categories?since=${encodeURIComponent(during.headers['service-modified'])}`)
        .set('Authorization', user.auth)
        .expect(200);
      expect(after.body.map((c: { id: string }) => c.id)).toEqual([pending.id]);
      const again = await request(t.app)
        .get(`/categories?since=${encodeURIComponent(after.headers['service-modified'])}`)
        .set('Authorization', user.auth)
        .expect(200);
      expect(again.body).toEqual([]);
    } finally {
      commit();
      await change;
    }
  });

  it('when two writers of one user overlap, then the later one waits and takes the higher number', async () => {
    const user = await createTestUser(t.deps);
    let proceed!: () => void;
    const held = new Promise<void>((resolve) => (proceed = resolve));
    let claimed!: () => void;
    const holding = new Promise<void>((resolve) => (claimed = resolve));
    const first = t.deps.store.change({ userId: user.userId }, async (open) => {
      claimed();
      await held;
      await categoriesTable.insert(open, { name: 'first', type: 'expense' });
    });
    await holding;
    let secondDone = false;
    const second = createCategory(t.app, user, { name: 'second', type: 'expense' }).then((id) => {
      secondDone = true;
      return id;
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(secondDone).toBe(false);
    proceed();
    await first;
    await second;
    const list = await request(t.app).get('/categories').set('Authorization', user.auth).expect(200);
    expect(list.body.map((c: { name: string }) => c.name)).toEqual(['second', 'first']);
  });

  it('when totals are cached, then X-Total-Count still follows every write and each filter', async () => {
    const user = await createTestUser(t.deps);
    const total = async (query = '') =>
      (await request(t.app).get(`/categories?${query}`).set('Authorization', user.auth).expect(200)).headers[
        'x-total-count'
      ];
    await createCategory(t.app, user, { name: 'a', type: 'expense' });
    expect(await total()).toBe('1');
    expect(await total('per_page=10')).toBe('1');
    const keys = await keysMatching(
      t.deps.redis,
      `${process.env.REDIS_KEY_PREFIX}count:categories:${user.userId}:*`,
    );
    expect(keys.length).toBeGreaterThan(0);
    const id = await createCategory(t.app, user, { name: 'b', type: 'income' });
    expect(await total()).toBe('2');
    expect(await total('type=income')).toBe('1');
    await request(t.app).delete(`/categories/${id}`).set('Authorization', user.auth).expect(204);
    expect(await total()).toBe('1');
    expect(await total('type=income')).toBe('0');
    expect(await total('include_deleted=true')).toBe('2');
  });

  it('when each endpoint lists, then each has its own Service-Modified', async () => {
    const user = await createTestUser(t.deps);
    await createCategory(t.app, user, { name: 'c', type: 'expense' });
    const categories = await request(t.app).get('/categories').set('Authorization', user.auth);
    const tags = await request(t.app).get('/tags').set('Authorization', user.auth);
    expect(categories.headers['service-modified']).toBeDefined();
    expect(tags.headers['service-modified']).toBeDefined();
    expect(categories.headers['service-modified']).not.toBe(tags.headers['service-modified']);
  });
});
