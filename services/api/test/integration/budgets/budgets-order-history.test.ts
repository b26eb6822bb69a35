import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTag,
  createTestUser,
  startApiTestApp,
} from '../../support/api-test-app';
import { postAccount } from '../ledger/ledger-http';
import { budgetBody, listBudgets, postBudget, postEntries } from './budgets-http';

let api: ApiTestApp;
beforeAll(async () => {
  api = await startApiTestApp();
});
afterAll(() => api.close());

const orderOf = async (user: Awaited<ReturnType<typeof createTestUser>>, ids: string[]) => {
  const list = await listBudgets(api.app, user, 'from=2025-05-01&to=2025-05-31').expect(200);
  return ids.map((id) => list.body.find((item: { id: string }) => item.id === id).order);
};

describe('budgets: order, history, references', () => {
  it('when budgets are moved and reordered, then their order follows; bad bodies are 400', async () => {
    const user = await createTestUser(api.deps);
    const a = await postBudget(api.app, user, budgetBody({ name: 'A' }));
    const b = await postBudget(api.app, user, budgetBody({ name: 'B' }));
    const c = await postBudget(api.app, user, budgetBody({ name: 'C' }));
    expect(await orderOf(user, [a, b, c])).toEqual([0, 1, 2]);
    await request(api.app)
      .post(`/budgets/${c}/move`)
      .set('Authorization', user.auth)
      .send({ position: 0 })
      .expect(204);
    expect(await orderOf(user, [c, a, b])).toEqual([0, 1, 2]);
    await request(api.app)
      .post('/budgets/reorder')
      .set('Authorization', user.auth)
      .send({ order: [b, a] })
      .expect(204);
    expect(await orderOf(user, [b, a, c])).toEqual([0, 1, 2]);
    const badMove = await request(api.app)
      .post(`/budgets/${a}/move`)
      .set('Authorization', user.auth)
      .send({ position: -1 })
      .expect(400);
    expect(badMove.body.fields[0].field).toBe('position');
    const badOrder = await request(api.app)
      .post('/budgets/reorder')
      .set('Authorization', user.auth)
      .send({ order: [a, a] })
      .expect(400);
    expect(badOrder.body.fields[0].field).toBe('order');
  });

  it('when history is asked, then iterations come newest first with their figures, paginated', async () => {
    const user = await createTestUser(api.deps);
    const food = await createCategory(api.app, user, { name: 'Food', type: 'expense' });
    const eur = await postAccount(api.app, user, { name: 'EUR', currency: { code: 'EUR' } });
    const base = { currency: { code: 'EUR' }, account: eur, category: food };
    await postEntries(api.app, user, [
      { ...base, amount: -10, date: '2025-01-05' },
      { ...base, amount: -20, date: '2025-02-05' },
      { ...base, amount: -30, date: '2025-03-05' },
    ]);
    const id = await postBudget(
      api.app,
      user,
      budgetBody({ limit: 25, rollover: true, recurrence: { frequency: 'monthly', start: '2025-01-01' } }),
    );
    const history = await request(api.app)
      .get(`/budgets/${id}/history?to=2025-03-31`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(history.body).toEqual([
      {
        budget_id: id,
        from: '2025-03-01',
        to: '2025-03-31',
        iteration: 2,
        limit: 25,
        currency: expect.objectContaining({ code: 'EUR', main_rate: 1 }),
        limit_planned: 25,
        amount: 30,
        planned: 0,
        rollover_amount: 5,
      },
      expect.objectContaining({ from: '2025-02-01', amount: 20, rollover_amount: 15 }),
      expect.objectContaining({ from: '2025-01-01', amount: 10, rollover_amount: 0 }),
    ]);
    expect(history.headers['x-total-count']).toBe('3');
    const paged = await request(api.app)
      .get(`/budgets/${id}/history?from=2025-01-01&to=2025-12-31&per_page=10&page=1`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(paged.body.map((item: { from: string }) => item.from)).toEqual(['2025-02-01', '2025-01-01']);
    expect(paged.headers.link).toContain('rel="previous"');
    const missing = await request(api.app)
      .get(`/budgets/${id}/history`)
      .set('Authorization', user.auth)
      .expect(400);
    expect(missing.body.fields[0].field).toBe('to');
  });

  it('when a referenced category, tag or account is deleted, then the budget reports a problem', async () => {
    const user = await createTestUser(api.deps);
    const food = await createCategory(api.app, user, { name: 'Food', type: 'expense' });
    const tag = await createTag(api.app, user, { name: 'lunch', type: 'expense' });
    await postAccount(api.app, user, { name: 'Main', currency: { code: 'EUR' } });
    const card = await postAccount(api.app, user, { name: 'Card', currency: { code: 'EUR' } });
    const id = await postBudget(
      api.app,
      user,
      budgetBody({ categories: [food], '!tags': [tag], accounts: [card] }),
    );
    const clean = await request(api.app).get(`/budgets/${id}`).set('Authorization', user.auth).expect(200);
    expect(clean.body).not.toHaveProperty('problem');
    for (const path of [`/categories/${food}`, `/tags/${tag}`, `/accounts/${card}`]) {
      await request(api.app).delete(path).set('Authorization', user.auth).expect(204);
    }
    const broken = await request(api.app).get(`/budgets/${id}`).set('Authorization', user.auth).expect(200);
    expect(broken.body.problem).toEqual({
      description: expect.any(String),
      deleted_categories: [food],
      deleted_tags: [tag],
      deleted_accounts: [card],
    });
    const problems = await listBudgets(api.app, user, 'from=2025-05-01&to=2025-05-31&has_problem=true');
    expect(problems.body.map((item: { id: string }) => item.id)).toEqual([id]);
    const healthy = await listBudgets(api.app, user, 'from=2025-05-01&to=2025-05-31&has_problem=false');
    expect(healthy.body).toEqual([]);
    // The fetched budget can still be written back whole; a newly added deleted id cannot.
    const put = await request(api.app)
      .put(`/budgets/${id}`)
      .set('Authorization', user.auth)
      .send({ ...broken.body, name: 'Renamed' })
      .expect(200);
    expect(put.body.name).toBe('Renamed');
    const other = await postBudget(api.app, user, budgetBody());
    const fetched = (await request(api.app).get(`/budgets/${other}`).set('Authorization', user.auth)).body;
    const refused = await request(api.app)
      .put(`/budgets/${other}`)
      .set('Authorization', user.auth)
      .send({ ...fetched, categories: [food] })
      .expect(400);
    expect(refused.body.fields[0].field).toBe('categories.0');
  });

  it('when budgets reference categories and tags, then their counts.budgets count them; merges move the references', async () => {
    const user = await createTestUser(api.deps);
    const food = await createCategory(api.app, user, { name: 'Food', type: 'expense' });
    const snacks = await createCategory(api.app, user, { name: 'Snacks', type: 'expense' });
    const tag = await createTag(api.app, user, { name: 'lunch', type: 'expense' });
    await postBudget(api.app, user, budgetBody({ categories: [food], tags: [tag] }));
    const merged = await postBudget(api.app, user, budgetBody({ '!categories': [snacks] }));
    const gone = await postBudget(api.app, user, budgetBody({ categories: [food] }));
    await request(api.app).delete(`/budgets/${gone}`).set('Authorization', user.auth).expect(204);
    const counts = async (path: string) =>
      (await request(api.app).get(path).set('Authorization', user.auth).expect(200)).body.counts.budgets;
    expect(await counts(`/categories/${food}`)).toBe(1);
    expect(await counts(`/categories/${snacks}`)).toBe(1);
    expect(await counts(`/tags/${tag}`)).toBe(1);
    const list = await request(api.app).get('/categories').set('Authorization', user.auth).expect(200);
    expect(list.body.find((item: { id: string }) => item.id === food).counts.budgets).toBe(1);
    await request(api.app)
      .post('/categories/merge')
      .set('Authorization', user.auth)
      .send({ categories: [snacks], category: food })
      .expect(204);
    const after = await request(api.app)
      .get(`/budgets/${merged}`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(after.body['!categories']).toEqual([food]);
    expect(after.body).not.toHaveProperty('problem');
    expect(await counts(`/categories/${food}`)).toBe(2);
  });
});
