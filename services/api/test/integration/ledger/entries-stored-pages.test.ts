import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTestUser,
  issueToken,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';
import { postAccount, postEntry } from './ledger-http';

/**
 * GET /entries answers an unchanged page with the bytes it sent before (StoredPages, keyed by the user's data
 * version). These tests pin the risks of that: a stale page after a change, one user's page reaching another,
 * and one query's page answering a different query.
 */
let api: ApiTestApp;
let user: TestUser;
let food: string;
let salary: string;
let account: string;
beforeAll(async () => {
  api = await startApiTestApp();
});
afterAll(() => api.close());
beforeEach(async () => {
  user = await createTestUser(api.deps);
  food = await createCategory(api.app, user, { name: 'Food', type: 'expense' });
  salary = await createCategory(api.app, user, { name: 'Salary', type: 'income' });
  account = await postAccount(api.app, user, { name: 'Cash', currency: { code: 'EUR' } });
  await postEntry(api.app, user, {
    amount: -3,
    currency: { code: 'EUR' },
    date: '2025-05-09',
    account,
    category: food,
    desc: 'lunch',
  });
  await postEntry(api.app, user, {
    amount: 900,
    currency: { code: 'EUR' },
    date: '2025-05-01',
    account,
    category: salary,
    desc: 'pay',
  });
});

const get = (path: string, who: TestUser = user) => request(api.app).get(path).set('Authorization', who.auth);
/** Changes a description behind the API's back: no watermark move, so only a stored page still says 'lunch'. */
const sneakyRename = (desc: string) =>
  api.deps.dataSource.query(
    `UPDATE entries SET description = $2 WHERE user_id = $1 AND description = 'lunch'`,
    [user.userId, desc],
  );
const LIST_HEADERS = ['etag', 'last-modified', 'link', 'x-total-count', 'service-modified', 'content-type'];

describe('GET /entries unchanged-page fast path', () => {
  it('when a page is asked again with no change, then the same bytes and list headers come back, stored', async () => {
    const first = await get('/entries?per_page=10').expect(200);
    await sneakyRename('renamed behind the API');
    const again = await get('/entries?per_page=10').expect(200);
    expect(again.text).toBe(first.text);
    for (const header of LIST_HEADERS) expect(again.headers[header]).toBe(first.headers[header]);
    expect(again.headers.link).toContain('rel="first"');
    expect(again.headers['x-total-count']).toBe('2');
    // The same query with its parameters in another order is the same page.
    const reordered = await get('/entries?per_page=10&from=2025-01-01').expect(200);
    const reorderedAgain = await get('/entries?from=2025-01-01&per_page=10').expect(200);
    expect(reorderedAgain.text).toBe(reordered.text);
  });

  it('when the client sends the stored page ETag, then 304 with the list headers', async () => {
    const first = await get('/entries').expect(200);
    const notModified = await get('/entries').set('If-None-Match', first.headers.etag).expect(304);
    expect(notModified.text).toBe('');
    expect(notModified.headers['x-total-count']).toBe('2');
    expect(notModified.headers['service-modified']).toBe(first.headers['service-modified']);
  });

  it('when any entry of the user changes through the API, then the next page is read fresh', async () => {
    const first = await get('/entries').expect(200);
    await sneakyRename('renamed behind the API');
    await postEntry(api.app, user, {
      amount: -1,
      currency: { code: 'EUR' },
      date: '2025-05-02',
      account,
      category: food,
    });
    const fresh = await get('/entries').expect(200);
    expect(fresh.body.map((entry: { desc?: string }) => entry.desc)).toContain('renamed behind the API');
    expect(fresh.headers['x-total-count']).toBe('3');
    expect(fresh.headers.etag).not.toBe(first.headers.etag);
    expect(fresh.headers['service-modified']).not.toBe(first.headers['service-modified']);
  });

  it('when the profile changes (main currency, custom rates live there), then the next page is read fresh', async () => {
    await get('/entries').expect(200);
    await sneakyRename('renamed behind the API');
    await api.deps.dataSource.query(
      `UPDATE users SET modified_at = modified_at + interval '1 second' WHERE id = $1`,
      [user.userId],
    );
    const fresh = await get('/entries').expect(200);
    expect(fresh.body.map((entry: { desc?: string }) => entry.desc)).toContain('renamed behind the API');
  });

  it('when another user asks the same query, then they get their own page, never the stored one', async () => {
    const mine = await get('/entries').expect(200);
    expect(mine.body).toHaveLength(2);
    const other = await createTestUser(api.deps);
    const theirs = await get('/entries', other).expect(200);
    expect(theirs.body).toEqual([]);
    expect(theirs.headers['x-total-count']).toBe('0');
    expect(theirs.headers.etag).not.toBe(mine.headers.etag);
  });

  it('when filters differ, then each filter has its own page', async () => {
    const foodPage = await get(`/entries?categories=${food}`).expect(200);
    const salaryPage = await get(`/entries?categories=${salary}`).expect(200);
    expect(foodPage.body.map((entry: { desc?: string }) => entry.desc)).toEqual(['lunch']);
    expect(salaryPage.body.map((entry: { desc?: string }) => entry.desc)).toEqual(['pay']);
    const narrower = await get(`/entries?categories=${food}&from=2025-06-01`).expect(200);
    expect(narrower.body).toEqual([]);
  });

  it('when the same user asks with a token of other scopes, then the page is keyed apart', async () => {
    await get('/entries').expect(200);
    await sneakyRename('renamed behind the API');
    const narrow = await issueToken(api.deps, user.userId, 'entries:r');
    const answer = await request(api.app).get('/entries').set('Authorization', narrow.auth).expect(200);
    expect(answer.body.map((entry: { desc?: string }) => entry.desc)).toContain('renamed behind the API');
  });

  it("when another application of the same user asks with the same scopes, then it never gets the first one's extra", async () => {
    // `extra` is private to the user and the application: a stored page must be keyed by the application too.
    await postEntry(api.app, user, {
      amount: -7,
      currency: { code: 'EUR' },
      date: '2025-05-10',
      account,
      category: food,
      desc: 'with extra',
      extra: { secret_of_app_a: true },
    });
    const mine = await get('/entries').expect(200);
    expect(JSON.stringify(mine.body)).toContain('secret_of_app_a');
    const scopes = 'user:rw categories:rw tags:rw entries:rw accounts:rw budgets:rw';
    const otherApp = await issueToken(api.deps, user.userId, scopes, { client_id: 'another-app' });
    const theirs = await request(api.app).get('/entries').set('Authorization', otherApp.auth).expect(200);
    expect(theirs.body).toHaveLength(3);
    expect(JSON.stringify(theirs.body)).not.toContain('secret_of_app_a');
    await request(api.app)
      .get('/entries')
      .set('Authorization', otherApp.auth)
      .set('If-None-Match', mine.headers.etag)
      .expect(200);
  });
});
