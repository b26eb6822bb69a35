import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTestUser,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';
import { postAccount } from '../ledger/ledger-http';
import { budgetBody, postBudget, postEntries } from './budgets-http';

let api: ApiTestApp;
beforeAll(async () => {
  api = await startApiTestApp();
});
afterAll(() => api.close());

async function setUp(user: TestUser) {
  const food = await createCategory(api.app, user, { name: 'Food', type: 'expense' });
  const account = await postAccount(api.app, user, { name: 'Cash', currency: { code: 'EUR' } });
  const base = { currency: { code: 'EUR' }, account, category: food };
  await postEntries(api.app, user, [
    { ...base, amount: -40, date: '2025-05-02' },
    { ...base, amount: -60, date: '2025-05-20' },
    { ...base, amount: 500, date: '2025-05-03' },
    { ...base, amount: -25, date: '2025-03-10' },
  ]);
  return { food };
}

const summary = (user: TestUser, query: string) =>
  request(api.app).get(`/me/summary?${query}`).set('Authorization', user.auth);

describe('GET /me/summary with budgets', () => {
  it('when an overall regular budget covers from, then it is shown and left = limit − amount', async () => {
    const user = await createTestUser(api.deps);
    const { food } = await setUp(user);
    // Filtered, percent and later-ordered budgets are not the overall one.
    await postBudget(api.app, user, budgetBody({ name: 'Food only', categories: [food], limit: 10 }));
    await postBudget(
      api.app,
      user,
      budgetBody({ name: 'Share', type: 'percent', limit: undefined, percent: 10 }),
    );
    const overall = await postBudget(api.app, user, budgetBody({ name: 'Month', limit: 300 }));
    await postBudget(api.app, user, budgetBody({ name: 'Later', limit: 1 }));
    await request(api.app)
      .post(`/budgets/${overall}/move`)
      .set('Authorization', user.auth)
      .send({ position: 0 })
      .expect(204);
    const answer = await summary(user, 'from=2025-05-01&to=2025-05-31').expect(200);
    expect(answer.body.budget).toMatchObject({
      id: overall,
      name: 'Month',
      limit: 300,
      amount: 100,
      from: '2025-05-01',
      to: '2025-05-31',
    });
    expect(answer.body.left).toBe(200);
    // In USD: (300 − 100) EUR at the ECB rate of 2025-05-01 (a holiday: 1.1373 of 30 April).
    const usd = await summary(user, 'from=2025-05-01&to=2025-05-31&currency=USD').expect(200);
    expect(usd.body.left).toBe(227.46);
  });

  it('when no overall budget covers from, or the token lacks budgets:r, then left = incomes − expenses', async () => {
    const user = await createTestUser(api.deps);
    await setUp(user);
    await postBudget(
      api.app,
      user,
      budgetBody({ limit: 300, recurrence: { frequency: 'monthly', start: '2025-06-01' } }),
    );
    const answer = await summary(user, 'from=2025-05-01&to=2025-05-31').expect(200);
    expect(answer.body).not.toHaveProperty('budget');
    expect(answer.body.left).toBe(400);
    const noBudgets = await createTestUser(api.deps, 'user:r entries:r');
    const other = await summary(noBudgets, 'from=2025-05-01&to=2025-05-31').expect(200);
    expect(other.body).not.toHaveProperty('budget');
  });

  it('when all-time averages are asked, then every matching entry counts over its whole span', async () => {
    const user = await createTestUser(api.deps);
    await setUp(user);
    const answer = await summary(user, 'from=2025-05-01&to=2025-05-31').expect(200);
    // Entries span 10 March–20 May (72 days): expenses 125 × 31/72, incomes 500 × 31/72 (magnitudes).
    expect(answer.body.expenses).toMatchObject({ sum: 100, sum_planned: 0, all_time_avg: 53.82 });
    expect(answer.body.incomes).toMatchObject({ sum: 500, all_time_avg: 215.28 });
  });

  it('when another user has an overall budget, then it never shows in this user summary', async () => {
    const owner = await createTestUser(api.deps);
    await postBudget(api.app, owner, budgetBody({ limit: 999 }));
    const stranger = await createTestUser(api.deps);
    const answer = await summary(stranger, 'from=2025-05-01&to=2025-05-31').expect(200);
    expect(answer.body).not.toHaveProperty('budget');
    expect(answer.body.left).toBe(0);
  });
});
