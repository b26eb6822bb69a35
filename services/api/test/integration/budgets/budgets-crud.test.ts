import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTag,
  createTestUser,
  startApiTestApp,
} from '../../support/api-test-app';
import { postAccount } from '../ledger/ledger-http';
import { budgetBody, listBudgets, postBudget } from './budgets-http';

let api: ApiTestApp;
beforeAll(async () => {
  api = await startApiTestApp();
});
afterAll(() => api.close());

describe('budgets: create, read, update, delete', () => {
  it('when a budget is created, then 201 + Location and it reads back with its current iteration', async () => {
    const user = await createTestUser(api.deps);
    const category = await createCategory(api.app, user, { name: 'Food', type: 'expense' });
    const created = await request(api.app)
      .post('/budgets')
      .set('Authorization', user.auth)
      .send(budgetBody({ categories: [category], extra: { color: 'red' }, limit: 300.005 }))
      .expect(201);
    const id = String(created.headers.location).split('/').pop()!;
    expect(created.headers.location).toMatch(/\/budgets\/\d+$/);
    const got = await request(api.app).get(`/budgets/${id}`).set('Authorization', user.auth).expect(200);
    expect(got.body).toMatchObject({
      id,
      name: 'Food',
      type: 'regular',
      limit: 300, // half-even: 300.005 → 300.00
      currency: { code: 'EUR', fixed: false },
      recurrence: { frequency: 'monthly', interval: 1, start: '2025-05-01' },
      amount: 0,
      planned: 0,
      rollover: false,
      order: 0,
      status: 'active',
      categories: [category],
      recalculated: true,
      extra: { color: 'red' },
    });
    expect(got.body.recurrence.iteration).toBeGreaterThan(0);
    expect(got.body.from <= new Date().toISOString().slice(0, 10)).toBe(true);
    expect(got.headers['content-type']).toContain('profile=');
  });

  it('when the body breaks the rules, then 400 names each field and rule', async () => {
    const user = await createTestUser(api.deps);
    const other = await createTestUser(api.deps);
    const foreign = await createCategory(api.app, other, { name: 'Theirs', type: 'expense' });
    const mine = await createCategory(api.app, user, { name: 'Mine', type: 'expense' });
    const fieldsOf = async (body: Record<string, unknown>) =>
      (await request(api.app).post('/budgets').set('Authorization', user.auth).send(body).expect(400)).body
        .fields;
    expect(await fieldsOf({ name: 'x' })).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'type' }),
        expect.objectContaining({ field: 'currency' }),
        expect.objectContaining({ field: 'recurrence' }),
      ]),
    );
    const outOfRange = 'must be a date YYYY-MM-DD from 1900-01-01 to 2999-12-31';
    expect(
      await fieldsOf(budgetBody({ recurrence: { frequency: 'monthly', interval: 1, start: '0000-01-01' } })),
    ).toEqual([{ field: 'recurrence.start', error: outOfRange }]);
    expect(
      await fieldsOf(
        budgetBody({
          recurrence: { frequency: 'yearly', interval: 1, start: '2025-01-01', end: '9999-06-01' },
        }),
      ),
    ).toEqual([{ field: 'recurrence.end', error: outOfRange }]);
    expect(await fieldsOf(budgetBody({ currency: { code: 'EUR', rate: 1e18 } }))).toEqual([
      { field: 'currency.rate', error: 'must be a number from 0.000001 to 1000000' },
    ]);
    const badRange = await listBudgets(api.app, user, 'from=0000-01-01&to=2025-01-01').expect(400);
    expect(badRange.body.fields).toEqual([{ field: 'from', error: outOfRange }]);
    expect(await fieldsOf(budgetBody({ limit: undefined }))).toEqual([
      { field: 'limit', error: 'is required for regular budgets' },
    ]);
    expect(await fieldsOf(budgetBody({ limit: -1 }))).toEqual([
      { field: 'limit', error: 'must be a number ≥ 0' },
    ]);
    expect(await fieldsOf(budgetBody({ type: 'percent', limit: undefined }))).toEqual([
      { field: 'percent', error: 'is required for percent budgets (> 0)' },
    ]);
    expect(await fieldsOf(budgetBody({ type: 'delta' }))).toEqual([
      { field: 'delta', error: 'is required for delta budgets' },
    ]);
    expect((await fieldsOf(budgetBody({ name: 'n'.repeat(301) })))[0].field).toBe('name');
    expect((await fieldsOf(budgetBody({ currency: { code: 'QQQ' } })))[0].field).toBe('currency.code');
    expect(
      (
        await fieldsOf(
          budgetBody({ recurrence: { frequency: 'monthly', interval: 128, start: '2025-05-01' } }),
        )
      )[0].field,
    ).toBe('recurrence.interval');
    expect(
      await fieldsOf(budgetBody({ recurrence: { frequency: 'one-time', start: '2025-05-01' } })),
    ).toEqual([{ field: 'recurrence.end', error: 'is required for one-time budgets' }]);
    expect(
      await fieldsOf(
        budgetBody({ recurrence: { frequency: 'monthly', start: '2025-05-01', end: '2025-04-01' } }),
      ),
    ).toEqual([{ field: 'recurrence.end', error: 'must not be before start' }]);
    expect(await fieldsOf(budgetBody({ categories: [mine, foreign] }))).toEqual([
      { field: 'categories.1', error: 'must be one of your categories' },
    ]);
    expect((await fieldsOf(budgetBody({ '!tags': ['999999999'] })))[0].field).toBe('!tags.0');
    expect((await fieldsOf(budgetBody({ accounts: ['x'] })))[0].field).toBe('accounts.0');
  });

  it('when a budget is replaced or patched, then the change reads back; a stale modified merges or 409s', async () => {
    const user = await createTestUser(api.deps);
    const tag = await createTag(api.app, user, { name: 'lunch', type: 'expense' });
    const id = await postBudget(api.app, user, budgetBody());
    const first = (await request(api.app).get(`/budgets/${id}`).set('Authorization', user.auth)).body;
    const put = await request(api.app)
      .put(`/budgets/${id}`)
      .set('Authorization', user.auth)
      .send({ ...first, name: 'Eating', tags: [tag] })
      .expect(200);
    expect(put.body).toMatchObject({ name: 'Eating', tags: [tag], limit: 300 });
    const patched = await request(api.app)
      .patch(`/budgets/${id}`)
      .set('Authorization', user.auth)
      .send({ modified: first.modified, limit: 250 })
      .expect(200);
    expect(patched.body).toMatchObject({ name: 'Eating', limit: 250 }); // merged three-way
    const conflict = await request(api.app)
      .patch(`/budgets/${id}`)
      .set('Authorization', user.auth)
      .send({ modified: first.modified, limit: 100 })
      .expect(409);
    expect(conflict.body.current).toMatchObject({ limit: 250 });
    const bad = await request(api.app)
      .patch(`/budgets/${id}`)
      .set('Authorization', user.auth)
      .send({ modified: patched.body.modified, type: 'percent' })
      .expect(400);
    expect(bad.body.fields[0].field).toBe('percent');
    await request(api.app)
      .put(`/budgets/${id}?update=one`)
      .set('Authorization', user.auth)
      .send(patched.body)
      .expect(400);
  });

  it('when a recurring budget is replaced with update=tail, then the past keeps the old definition and a new budget carries on', async () => {
    const user = await createTestUser(api.deps);
    const id = await postBudget(
      api.app,
      user,
      budgetBody({ limit: 300, recurrence: { frequency: 'monthly', start: '2020-01-01' } }),
    );
    const fetched = (await request(api.app).get(`/budgets/${id}`).set('Authorization', user.auth)).body;
    const split = fetched.from; // the current iteration starts the tail
    const tail = await request(api.app)
      .put(`/budgets/${id}?update=tail`)
      .set('Authorization', user.auth)
      .send({ ...fetched, limit: 500 })
      .expect(200);
    expect(tail.body.id).not.toBe(id);
    expect(tail.body).toMatchObject({ limit: 500, from: split, recurrence: { start: split, iteration: 0 } });
    const old = (await request(api.app).get(`/budgets/${id}`).set('Authorization', user.auth)).body;
    expect(old).toMatchObject({ limit: 300 });
    expect(old.recurrence.end < split).toBe(true);
    // Figures change without a write (the day, the rates): lists and budgets carry an ETag, no Last-Modified.
    const listed = await listBudgets(api.app, user, 'from=2020-01-01&to=2020-01-31').expect(200);
    expect(listed.headers['last-modified']).toBeUndefined();
    expect(listed.headers.etag).toBeDefined();
    // The old budget has ended: a tail update of it (a retry, say) has no tail to change.
    const ended = await request(api.app)
      .put(`/budgets/${id}?update=tail`)
      .set('Authorization', user.auth)
      .send({ ...old, limit: 700 })
      .expect(400);
    expect(ended.body.fields).toEqual([
      { field: 'update', error: `the budget ended on ${old.recurrence.end}: use update=all to change it` },
    ]);
    const past = await listBudgets(api.app, user, 'from=2020-01-01&to=2020-01-31').expect(200);
    expect(past.body.map((item: { id: string; limit: number }) => [item.id, item.limit])).toEqual([
      [id, 300],
    ]);
    // Before its first iteration is over, a tail update is the whole budget.
    const future = await postBudget(
      api.app,
      user,
      budgetBody({ recurrence: { frequency: 'monthly', start: '2999-01-01' } }),
    );
    const body = (await request(api.app).get(`/budgets/${future}`).set('Authorization', user.auth)).body;
    const same = await request(api.app)
      .put(`/budgets/${future}?update=tail`)
      .set('Authorization', user.auth)
      .send({ ...body, limit: 1 })
      .expect(200);
    expect(same.body).toMatchObject({ id: future, limit: 1 });
  });

  it('when a budget is deleted, then it is gone, and listed only with include_deleted', async () => {
    const user = await createTestUser(api.deps);
    const id = await postBudget(api.app, user, budgetBody());
    await request(api.app).delete(`/budgets/${id}`).set('Authorization', user.auth).expect(204);
    await request(api.app).get(`/budgets/${id}`).set('Authorization', user.auth).expect(404);
    await request(api.app).delete(`/budgets/${id}`).set('Authorization', user.auth).expect(404);
    const live = await listBudgets(api.app, user, 'from=2025-05-01&to=2025-05-31').expect(200);
    expect(live.body).toEqual([]);
    const all = await listBudgets(api.app, user, 'from=2025-05-01&to=2025-05-31&include_deleted=true');
    expect(all.body).toEqual([expect.objectContaining({ id, deleted: true })]);
  });

  it('when the same POST is retried with its Idempotency-Key, then one budget exists', async () => {
    const user = await createTestUser(api.deps);
    const send = () =>
      request(api.app)
        .post('/budgets')
        .set('Authorization', user.auth)
        .set('Idempotency-Key', 'budget-1')
        .send(budgetBody());
    const first = await send().expect(201);
    const again = await send().expect(201);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await listBudgets(api.app, user, 'from=2025-05-01&to=2025-05-31')).body).toHaveLength(1);
  });

  it('when another user asks for, changes or deletes a budget, then 404 and their lists do not show it', async () => {
    const owner = await createTestUser(api.deps);
    const stranger = await createTestUser(api.deps);
    const id = await postBudget(api.app, owner, budgetBody());
    const mine = (await request(api.app).get(`/budgets/${id}`).set('Authorization', owner.auth)).body;
    const as = (method: 'get' | 'put' | 'patch' | 'delete', path: string) =>
      request(api.app)[method](path).set('Authorization', stranger.auth);
    await as('get', `/budgets/${id}`).expect(404);
    await as('get', `/budgets/${id}/history?to=2025-12-31`).expect(404);
    await as('put', `/budgets/${id}`).send(mine).expect(404);
    await as('patch', `/budgets/${id}`).send({ modified: mine.modified, name: 'x' }).expect(404);
    await as('delete', `/budgets/${id}`).expect(404);
    await request(api.app)
      .post(`/budgets/${id}/move`)
      .set('Authorization', stranger.auth)
      .send({ position: 0 })
      .expect(404);
    await request(api.app)
      .post('/budgets/reorder')
      .set('Authorization', stranger.auth)
      .send({ order: [id] })
      .expect(400);
    expect((await listBudgets(api.app, stranger, 'from=2025-01-01&to=2025-12-31')).body).toEqual([]);
    // The stranger's account cannot be used in the owner's budget either.
    const theirAccount = await postAccount(api.app, stranger, { name: 'Cash', currency: { code: 'EUR' } });
    await request(api.app)
      .post('/budgets')
      .set('Authorization', owner.auth)
      .send(budgetBody({ accounts: [theirAccount] }))
      .expect(400);
  });

  it('when the token lacks budgets scopes, then 403', async () => {
    const reader = await createTestUser(api.deps, 'user:r budgets:r');
    await request(api.app).post('/budgets').set('Authorization', reader.auth).send(budgetBody()).expect(403);
    const none = await createTestUser(api.deps, 'user:r');
    await listBudgets(api.app, none, 'from=2025-05-01&to=2025-05-31').expect(403);
  });
});
