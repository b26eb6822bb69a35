import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTestUser,
  issueToken,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';
import { postAccount } from '../ledger/ledger-http';
import { budgetBody, postBudget, postEntries } from './budgets-http';

/**
 * The budgets page and `/me/summary` answer an unchanged request with the bytes they sent before
 * (UnchangedAnswers, keyed by the user's data version, the rate book and today). These tests pin the risks:
 * a stale answer after a change, one user's answer reaching another, a token with fewer scopes getting an
 * answer made for more, and the conditional GET.
 */
let api: ApiTestApp;
let user: TestUser;
let account: string;
let food: string;
beforeAll(async () => {
  api = await startApiTestApp();
});
afterAll(() => api.close());
beforeEach(async () => {
  user = await createTestUser(api.deps);
  food = await createCategory(api.app, user, { name: 'Food', type: 'expense' });
  account = await postAccount(api.app, user, { name: 'Cash', currency: { code: 'EUR' } });
  await postBudget(api.app, user, budgetBody({ name: 'Month', limit: 300 }));
  await postEntries(api.app, user, [
    { currency: { code: 'EUR' }, account, category: food, amount: -40, date: '2025-05-02' },
  ]);
});

const PAGE = '/budgets?from=2025-05-01&to=2025-05-31&per_page=50';
const SUMMARY = '/me/summary?from=2025-05-01&to=2025-05-31';
const get = (path: string, auth = user.auth) => request(api.app).get(path).set('Authorization', auth);
/** Changes an amount behind the API's back: no watermark move, so only a kept answer still says 40. */
const sneakyAmount = (amount: string) =>
  api.deps.dataSource.query(`UPDATE entries SET amount = $2, account_amount = $2 WHERE user_id = $1`, [
    user.userId,
    amount,
  ]);

describe.each([
  ['the budgets page', PAGE, ['etag', 'link', 'x-total-count', 'content-type']],
  ['/me/summary', SUMMARY, ['etag', 'content-type']],
])('%s unchanged-answer fast path', (_name, path, headers) => {
  it('when asked again with no change, then the same bytes and headers come back, kept', async () => {
    const first = await get(path).expect(200);
    expect(first.text).toContain('40');
    await sneakyAmount('-45');
    const again = await get(path).expect(200);
    expect(again.text).toBe(first.text);
    for (const header of headers) expect(again.headers[header]).toBe(first.headers[header]);
  });

  it('when the user writes, then the next answer is read again', async () => {
    const first = await get(path).expect(200);
    await postEntries(api.app, user, [
      { currency: { code: 'EUR' }, account, category: food, amount: -2, date: '2025-05-03' },
    ]);
    const after = await get(path).expect(200);
    expect(after.text).not.toBe(first.text);
    expect(after.text).toContain('42');
  });

  it('when the client sends the kept ETag, then 304', async () => {
    const first = await get(path).expect(200);
    const notModified = await get(path).set('If-None-Match', first.headers.etag).expect(304);
    expect(notModified.text).toBe('');
  });

  it('when another user asks the same query, then they get their own answer', async () => {
    await get(path).expect(200);
    const other = await createTestUser(api.deps);
    const theirs = await get(path, other.auth).expect(200);
    expect(theirs.text).not.toContain('40');
  });
});

describe('/me/summary kept answers and scopes', () => {
  it('when a token without budgets:r asks after one with it, then its answer has no budget', async () => {
    const full = await get(SUMMARY).expect(200);
    expect(full.body.budget).toBeDefined();
    const { auth } = await issueToken(api.deps, user.userId, 'user:r entries:r');
    const narrow = await get(SUMMARY, auth).expect(200);
    expect(narrow.body.budget).toBeUndefined();
  });
});
