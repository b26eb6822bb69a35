import request from 'supertest';
import { ApiTestApp, createTestUser, startApiTestApp, TestUser } from '../../support/api-test-app';
import { balanceOf, postAccount, postEntry } from './ledger-http';
import { createCategory } from '../../support/api-test-app';
import { budgetBody, postBudget } from '../budgets/budgets-http';

let api: ApiTestApp;
let user: TestUser;
let category: string;
beforeAll(async () => {
  api = await startApiTestApp();
});
afterAll(() => api.close());
beforeEach(async () => {
  user = await createTestUser(api.deps);
  category = await createCategory(api.app, user, { name: 'Food', type: 'expense' });
});

const entry = (account: string, amount: number, extra: Record<string, unknown> = {}) => ({
  amount,
  currency: { code: 'EUR' },
  date: '2025-05-09',
  account,
  category,
  ...extra,
});

describe('/accounts', () => {
  it('when an account is created, then it answers 201 with Location and reads back with its derived balance', async () => {
    const id = await postAccount(api.app, user, {
      name: 'Cash',
      currency: { code: 'EUR' },
      initial_balance: 10.005,
      type: 'depository',
    });
    const answer = await request(api.app).get(`/accounts/${id}`).set('Authorization', user.auth).expect(200);
    expect(answer.headers['content-type']).toContain('application/vnd.service+json');
    expect(answer.body).toMatchObject({
      id,
      name: 'Cash',
      type: 'depository',
      currency: { code: 'EUR' },
      initial_balance: 10,
      balance: 10,
      status: 'active',
      order: 0,
    });
    expect(answer.body.modified).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/);
  });

  it('when fields break the rules, then 400 names each field', async () => {
    const answer = await request(api.app)
      .post('/accounts')
      .set('Authorization', user.auth)
      .send({ name: '', currency: { code: 'XYZ' }, type: 'piggy' })
      .expect(400);
    const fields = answer.body.fields.map((f: { field: string }) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'type']));
    const unknownCurrency = await request(api.app)
      .post('/accounts')
      .set('Authorization', user.auth)
      .send({ name: 'X', currency: { code: 'XYZ' } })
      .expect(400);
    expect(unknownCurrency.body.fields).toEqual([
      { field: 'currency.code', error: 'must be a known ISO 4217 currency code' },
    ]);
  });

  it('when accounts are listed, then status and ids filter them', async () => {
    const a = await postAccount(api.app, user, { name: 'A', currency: { code: 'EUR' } });
    const b = await postAccount(api.app, user, { name: 'B', currency: { code: 'EUR' }, status: 'archived' });
    const archived = await request(api.app)
      .get('/accounts?status=archived')
      .set('Authorization', user.auth)
      .expect(200);
    expect(archived.body.map((x: { id: string }) => x.id)).toEqual([b]);
    const byIds = await request(api.app)
      .get(`/accounts?ids=${a}`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(byIds.body.map((x: { id: string }) => x.id)).toEqual([a]);
    expect(byIds.headers['x-total-count']).toBe('1');
  });

  it('when an account is replaced and patched, then the new fields read back and the balance stays derived', async () => {
    const id = await postAccount(api.app, user, { name: 'A', currency: { code: 'EUR' }, initial_balance: 5 });
    await postEntry(api.app, user, entry(id, -2));
    const current = (await request(api.app).get(`/accounts/${id}`).set('Authorization', user.auth)).body;
    const put = await request(api.app)
      .put(`/accounts/${id}`)
      .set('Authorization', user.auth)
      .send({ ...current, name: 'Renamed', initial_balance: 100 })
      .expect(200);
    expect(put.body).toMatchObject({ name: 'Renamed', initial_balance: 100, balance: 98 });
    const patch = await request(api.app)
      .patch(`/accounts/${id}`)
      .set('Authorization', user.auth)
      .send({ modified: put.body.modified, limit: 500 })
      .expect(200);
    expect(patch.body).toMatchObject({ name: 'Renamed', limit: 500, balance: 98 });
  });

  it('when the currency of an account with entries is changed, then 400 explains why', async () => {
    const id = await postAccount(api.app, user, { name: 'A', currency: { code: 'EUR' } });
    await postEntry(api.app, user, entry(id, -2));
    const current = (await request(api.app).get(`/accounts/${id}`).set('Authorization', user.auth)).body;
    const answer = await request(api.app)
      .put(`/accounts/${id}`)
      .set('Authorization', user.auth)
      .send({ ...current, currency: { code: 'USD' } })
      .expect(400);
    expect(answer.body.fields).toEqual([
      { field: 'currency.code', error: 'cannot change while the account has entries' },
    ]);
  });

  it('when the last account is deleted, then 422; another one goes with its entries (204)', async () => {
    const a = await postAccount(api.app, user, { name: 'A', currency: { code: 'EUR' } });
    const b = await postAccount(api.app, user, { name: 'B', currency: { code: 'EUR' } });
    const entryId = await postEntry(api.app, user, entry(a, -3));
    await request(api.app).delete(`/accounts/${a}`).set('Authorization', user.auth).expect(204);
    await request(api.app).get(`/entries/${entryId}`).set('Authorization', user.auth).expect(404);
    await request(api.app).get(`/accounts/${a}`).set('Authorization', user.auth).expect(404);
    const refused = await request(api.app)
      .delete(`/accounts/${b}`)
      .set('Authorization', user.auth)
      .expect(422);
    expect(refused.body.description).toMatch(/last account/);
  });

  it('when accounts are moved and reordered, then order follows', async () => {
    const ids = [];
    for (const name of ['A', 'B', 'C'])
      ids.push(await postAccount(api.app, user, { name, currency: { code: 'EUR' } }));
    await request(api.app)
      .post(`/accounts/${ids[2]}/move`)
      .set('Authorization', user.auth)
      .send({ position: 0 })
      .expect(204);
    const orderOf = async () => {
      const list = (await request(api.app).get('/accounts').set('Authorization', user.auth)).body as Array<{
        id: string;
        order: number;
      }>;
      return [...list].sort((x, y) => x.order - y.order).map((x) => x.id);
    };
    expect(await orderOf()).toEqual([ids[2], ids[0], ids[1]]);
    await request(api.app)
      .post('/accounts/reorder')
      .set('Authorization', user.auth)
      .send({ order: [ids[1], ids[0]] })
      .expect(204);
    expect(await orderOf()).toEqual([ids[1], ids[0], ids[2]]);
    await request(api.app)
      .post('/accounts/reorder')
      .set('Authorization', user.auth)
      .send({ order: ['999999999'] })
      .expect(400);
  });

  it('when accounts are merged, then entries move (converted into the target currency) and sources are deleted', async () => {
    const eur = await postAccount(api.app, user, { name: 'EUR', currency: { code: 'EUR' } });
    const usd = await postAccount(api.app, user, { name: 'USD', currency: { code: 'USD' } });
    const entryId = await postEntry(api.app, user, entry(eur, -100));
    await request(api.app)
      .post('/accounts/merge')
      .set('Authorization', user.auth)
      .send({ accounts: [eur], account: usd })
      .expect(204);
    await request(api.app).get(`/accounts/${eur}`).set('Authorization', user.auth).expect(404);
    const moved = (
      await request(api.app).get(`/entries/${entryId}`).set('Authorization', user.auth).expect(200)
    ).body;
    expect(moved).toMatchObject({ account: usd, amount: -100, currency: { code: 'EUR', rate: 1.1252 } });
    expect(await balanceOf(api.app, user, usd)).toBe(-112.52);
  });

  it('when accounts of one currency are merged, then each moved entry has a revision: two clients editing from its new modified merge', async () => {
    const a = await postAccount(api.app, user, { name: 'A', currency: { code: 'EUR' } });
    const b = await postAccount(api.app, user, { name: 'B', currency: { code: 'EUR' } });
    const ids = [];
    for (let i = 0; i < 3; i += 1) ids.push(await postEntry(api.app, user, entry(a, -1 - i)));
    await request(api.app)
      .post('/accounts/merge')
      .set('Authorization', user.auth)
      .send({ accounts: [a], account: b })
      .expect(204);
    const revisions = await api.deps.dataSource.query(
      `SELECT object_id::text AS id FROM resource_revisions r JOIN entries e ON e.id = r.object_id
       WHERE r.kind = 'entries' AND r.modified_at = e.modified_at AND e.account_id = $1`,
      [b],
    );
    expect(revisions.map((row: { id: string }) => row.id).sort()).toEqual([...ids].sort());
    const moved = (await request(api.app).get(`/entries/${ids[1]}`).set('Authorization', user.auth)).body;
    expect(moved).toMatchObject({ account: b, amount: -2 });
    await request(api.app)
      .patch(`/entries/${ids[1]}`)
      .set('Authorization', user.auth)
      .send({ modified: moved.modified, desc: 'first' })
      .expect(200);
    const merged = await request(api.app)
      .patch(`/entries/${ids[1]}`)
      .set('Authorization', user.auth)
      .send({ modified: moved.modified, amount: -7 })
      .expect(200);
    expect(merged.body).toMatchObject({ desc: 'first', amount: -7, account: b });
    expect(await balanceOf(api.app, user, b)).toBe(-1 - 7 - 3);
  });

  it('when another user names an account on any route, then 404', async () => {
    const stranger = await createTestUser(api.deps);
    const id = await postAccount(api.app, user, { name: 'Mine', currency: { code: 'EUR' } });
    await postAccount(api.app, stranger, { name: 'Theirs', currency: { code: 'EUR' } });
    const as = (r: request.Test) => r.set('Authorization', stranger.auth);
    await as(request(api.app).get(`/accounts/${id}`)).expect(404);
    await as(request(api.app).put(`/accounts/${id}`))
      .send({ name: 'x', currency: { code: 'EUR' }, modified: '2025-01-01 00:00:00.000' })
      .expect(404);
    await as(request(api.app).patch(`/accounts/${id}`))
      .send({ name: 'x', modified: '2025-01-01 00:00:00.000' })
      .expect(404);
    await as(request(api.app).delete(`/accounts/${id}`)).expect(404);
    await as(request(api.app).post(`/accounts/${id}/move`))
      .send({ position: 0 })
      .expect(404);
    await as(request(api.app).post('/accounts/merge'))
      .send({ accounts: [id], account: id })
      .expect(404);
    await as(request(api.app).post('/accounts/reorder'))
      .send({ order: [id] })
      .expect(400);
    const list = await as(request(api.app).get('/accounts')).expect(200);
    expect(list.body.map((x: { id: string }) => x.id)).not.toContain(id);
  });

  it('when the token lacks accounts scopes, then 403 names the scope', async () => {
    const reader = await createTestUser(api.deps, 'accounts:r');
    await request(api.app).get('/accounts').set('Authorization', reader.auth).expect(200);
    const answer = await request(api.app)
      .post('/accounts')
      .set('Authorization', reader.auth)
      .send({ name: 'A', currency: { code: 'EUR' } })
      .expect(403);
    expect(answer.body.description).toContain('accounts:rw');
  });
});

describe('Idempotency-Key on account methods', () => {
  it('when a merge is retried with the same key, then the first 204 comes back instead of a 404', async () => {
    const idem = await createTestUser(api.deps);
    const a = await postAccount(api.app, idem, { name: 'A', currency: { code: 'EUR' } });
    const b = await postAccount(api.app, idem, { name: 'B', currency: { code: 'EUR' } });
    const merge = () =>
      request(api.app)
        .post('/accounts/merge')
        .set('Authorization', idem.auth)
        .set('Idempotency-Key', 'merge-1')
        .send({ accounts: [a], account: b });
    await merge().expect(204);
    const retry = await merge().expect(204);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    await request(api.app)
      .post('/accounts/merge')
      .set('Authorization', idem.auth)
      .send({ accounts: [a], account: b })
      .expect(404);
  });
});

describe('merging accounts named by budgets and repeating entries', () => {
  it('when an account is merged, then budgets filtering by it and series booking on it follow to the target', async () => {
    const owner = await createTestUser(api.deps);
    const cat = await createCategory(api.app, owner, { name: 'Rent', type: 'expense' });
    const a = await postAccount(api.app, owner, { name: 'A', currency: { code: 'EUR' } });
    const b = await postAccount(api.app, owner, { name: 'B', currency: { code: 'EUR' } });
    const c = await postAccount(api.app, owner, { name: 'C', currency: { code: 'EUR' } });
    const only = await postBudget(api.app, owner, budgetBody({ accounts: [a] }));
    const except = await postBudget(api.app, owner, budgetBody({ '!accounts': [a, c] }));
    const series = (extra: Record<string, unknown>) =>
      postEntry(api.app, owner, {
        amount: -10,
        currency: { code: 'EUR' },
        date: '2030-01-05',
        account: a,
        category: cat,
        repeat: { start: '2030-01-05', frequency: 'monthly', interval: 1 },
        ...extra,
      });
    await series({});
    await series({ account: c, transaction: { account: a } });
    await series({ account: c, transaction: { account: b } });
    await series({ transaction: { account: b } });
    await request(api.app)
      .post('/accounts/merge')
      .set('Authorization', owner.auth)
      .send({ accounts: [a], account: b })
      .expect(204);
    const budget = async (id: string) =>
      (await request(api.app).get(`/budgets/${id}`).set('Authorization', owner.auth).expect(200)).body;
    expect(await budget(only)).toMatchObject({ accounts: [b] });
    expect((await budget(only)).problem).toBeUndefined();
    expect((await budget(except))['!accounts'].sort()).toEqual([b, c].sort());
    const planned = (
      await request(api.app)
        .get('/entries?from=2030-02-01&to=2030-02-28&expand=true')
        .set('Authorization', owner.auth)
        .expect(200)
    ).body.filter((item: { planned?: boolean }) => item.planned);
    const sides = planned.map((item: { account: string; transaction?: { account: string } }) => [
      item.account,
      item.transaction?.account,
    ]);
    // A now B; C→A now C→B; C→B unchanged; A→B is within B, so no transfer: every series lands where its
    // past entries went.
    expect(sides.sort()).toEqual(
      [
        [b, undefined],
        [b, undefined],
        [c, b],
        [c, b],
      ].sort(),
    );
  });
});

describe('merging accounts joined by a transfer', () => {
  it('when both sides of a transfer end in one account, then they become plain entries that can still be edited', async () => {
    const owner = await createTestUser(api.deps);
    const cat = await createCategory(api.app, owner, { name: 'Moves', type: 'expense' });
    const a = await postAccount(api.app, owner, { name: 'A', currency: { code: 'EUR' } });
    const b = await postAccount(api.app, owner, { name: 'B', currency: { code: 'EUR' } });
    const id = await postEntry(api.app, owner, {
      amount: -10,
      currency: { code: 'EUR' },
      date: '2025-05-09',
      account: a,
      category: cat,
      transaction: { account: b },
    });
    await request(api.app)
      .post('/accounts/merge')
      .set('Authorization', owner.auth)
      .send({ accounts: [a], account: b })
      .expect(204);
    const moved = (await request(api.app).get(`/entries/${id}`).set('Authorization', owner.auth).expect(200))
      .body;
    expect(moved).not.toHaveProperty('transaction');
    await request(api.app)
      .patch(`/entries/${id}`)
      .set('Authorization', owner.auth)
      .send({ modified: moved.modified, desc: 'ok' })
      .expect(200);
    expect(await balanceOf(api.app, owner, b)).toBe(0);
  });
});
