import request from 'supertest';
import { type ApiTestApp, createCategory, createTestUser, type TestUser } from '../../support/api-test-app';
import { postAccount } from '../ledger/ledger-http';

/** A user with an EUR account, a second EUR account and an expense category. */
export interface RepeatUser extends TestUser {
  account: string;
  savings: string;
  category: string;
}

export async function createRepeatUser(api: ApiTestApp): Promise<RepeatUser> {
  const user = await createTestUser(api.deps);
  const category = await createCategory(api.app, user, { name: 'Rent', type: 'expense' });
  const account = await postAccount(api.app, user, { name: 'Cash', currency: { code: 'EUR' } });
  const savings = await postAccount(api.app, user, { name: 'Savings', currency: { code: 'EUR' } });
  return { ...user, account, savings, category };
}

export const entryBody = (user: RepeatUser, extra: Record<string, unknown> = {}) => ({
  amount: -10,
  currency: { code: 'EUR' },
  date: '2025-01-31',
  account: user.account,
  category: user.category,
  ...extra,
});

/** An entry as listed; tests read its fields loosely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked by expectations
export type ListedEntry = Record<string, any>;

/** Every live entry of the user (all pages of 500), by date then iteration. */
export async function listAll(api: ApiTestApp, user: TestUser, query = '') {
  const answer = await request(api.app)
    .get(`/entries?per_page=500${query}`)
    .set('Authorization', user.auth)
    .expect(200);
  return (answer.body as ListedEntry[]).sort(
    (a, b) =>
      (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) ||
      (a.repeat?.iteration ?? 0) - (b.repeat?.iteration ?? 0),
  );
}

export function postRepeating(api: ApiTestApp, user: RepeatUser, body: Record<string, unknown>) {
  return request(api.app).post('/entries').set('Authorization', user.auth).send(body);
}
