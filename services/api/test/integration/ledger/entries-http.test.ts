import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTag,
  createTestUser,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';
import { balanceOf, postAccount, postEntry } from './ledger-http';

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
});

const entry = (extra: Record<string, unknown> = {}) => ({
  amount: -12.5,
  currency: { code: 'EUR' },
  date: '2025-05-09',
  account,
  category: food,
  ...extra,
});
const get = (path: string, who: TestUser = user) => request(api.app).get(path).set('Authorization', who.auth);
const idsOf = (body: Array<{ id: string }>) => body.map((item) => item.id).sort();

describe('POST /entries', () => {
  it('when an entry is created, then 201 with Location and it reads back exactly', async () => {
    const answer = await request(api.app)
      .post('/entries')
      .set('Authorization', user.auth)
      .send(entry({ desc: 'lunch', amount: -0.1 }))
      .expect(201);
    const id = String(answer.headers.location).split('/').pop();
    const read = await get(`/entries/${id}`).expect(200);
    expect(read.body).toMatchObject({
      id,
      amount: -0.1,
      currency: { code: 'EUR', rate: 1 },
      date: '2025-05-09',
      desc: 'lunch',
      account,
      category: food,
      completed: false,
    });
    expect(read.body).not.toHaveProperty('tags');
  });

  it('when fields break the rules, then 400 names each field and nothing is created', async () => {
    const answer = await request(api.app)
      .post('/entries')
      .set('Authorization', user.auth)
      .send({
        amount: 'lots',
        currency: { code: 'EUR' },
        date: '2025-02-30',
        account,
        category: food,
        desc: 'x'.repeat(3073),
      })
      .expect(400);
    const fields = answer.body.fields.map((f: { field: string }) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['amount', 'desc']));
    const badDate = await request(api.app)
      .post('/entries')
      .set('Authorization', user.auth)
      .send(entry({ date: '2025-02-30' }))
      .expect(400);
    expect(badDate.body.fields).toEqual([{ field: 'date', error: expect.stringContaining('date') }]);
    const tooBig = await request(api.app)
      .post('/entries')
      .set('Authorization', user.auth)
      .send(entry({ amount: 1e15 }))
      .expect(400);
    expect(tooBig.body.fields[0].field).toBe('amount');
    expect((await get('/entries').expect(200)).body).toEqual([]);
  });

  it('when a batch is sent, then all are created; when one is bad, then none is', async () => {
    const ok = await request(api.app)
      .post('/entries')
      .set('Authorization', user.auth)
      .send([entry(), entry({ amount: 3, category: salary })])
      .expect(201);
    expect(ok.body).toHaveLength(2);
    const stranger = await createTestUser(api.deps);
    const theirs = await postAccount(api.app, stranger, { name: 'X', currency: { code: 'EUR' } });
    const bad = await request(api.app)
      .post('/entries')
      .set('Authorization', user.auth)
      .send([entry(), entry({ account: theirs })])
      .expect(400);
    expect(bad.body.fields).toEqual([{ field: '1.account', error: 'must be one of your accounts' }]);
    expect((await get('/entries').expect(200)).body).toHaveLength(2);
    expect(await balanceOf(api.app, user, account)).toBe(-9.5);
  });

  it('when a batch spans two accounts, then each is answered in the order sent and each balance moves by its own entries', async () => {
    const savings = await postAccount(api.app, user, { name: 'Savings', currency: { code: 'EUR' } });
    const sent = [
      entry({ amount: -1.25, desc: 'a' }),
      entry({ amount: 100, category: salary, account: savings, desc: 'b' }),
      entry({ amount: -2.5, desc: 'c' }),
      entry({ amount: -0.1, account: savings, desc: 'd' }),
    ];
    const created = await request(api.app)
      .post('/entries')
      .set('Authorization', user.auth)
      .send(sent)
      .expect(201);
    expect(created.body.map((item: { desc: string }) => item.desc)).toEqual(['a', 'b', 'c', 'd']);
    expect(await balanceOf(api.app, user, account)).toBe(-3.75);
    expect(await balanceOf(api.app, user, savings)).toBe(99.9);
    const listed = (await get('/entries').expect(200)).body as Array<{ id: string }>;
    expect(listed.map((item) => item.id).sort()).toEqual(idsOf(created.body));
  });

  it('when the category and tag an earlier POST used are deleted, then the next POST naming them answers 400 naming each field and writes nothing', async () => {
    // The first POST leaves them known as live to the process (KnownReferences); the one-trip statement's own
    // check under the lock finds them gone, and the ordinary path names the fields.
    const tag = await createTag(api.app, user, { name: 'Lunch', type: 'expense' });
    await request(api.app)
      .post('/entries')
      .set('Authorization', user.auth)
      .send(entry({ tags: [tag] }))
      .expect(201);
    await request(api.app).delete(`/categories/${food}`).set('Authorization', user.auth).expect(204);
    await request(api.app).delete(`/tags/${tag}`).set('Authorization', user.auth).expect(204);
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await request(api.app)
        .post('/entries')
        .set('Authorization', user.auth)
        .send(entry({ tags: [tag] }))
        .expect(400);
      expect(answer.body.fields).toEqual([
        { field: 'category', error: 'must be one of your categories' },
        { field: 'tags.0', error: 'must be one of your tags' },
      ]);
    }
    expect((await get('/entries').expect(200)).body).toHaveLength(1);
    expect(await balanceOf(api.app, user, account)).toBe(-12.5);
  });

  it('when a POST is retried with the same Idempotency-Key, then the first result comes back and nothing is created twice', async () => {
    const send = (body: object) =>
      request(api.app)
        .post('/entries')
        .set('Authorization', user.auth)
        .set('Idempotency-Key', 'k-1')
        .send(body);
    const first = await send(entry()).expect(201);
    const retry = await send(entry()).expect(201);
    expect(retry.headers.location).toBe(first.headers.location);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect((await get('/entries').expect(200)).body).toHaveLength(1);
    await send(entry({ amount: -1 })).expect(422);
    // Keys are per user: another user may use the same key.
    const other = await createTestUser(api.deps);
    const otherCategory = await createCategory(api.app, other, { name: 'Food', type: 'expense' });
    const otherAccount = await postAccount(api.app, other, { name: 'A', currency: { code: 'EUR' } });
    await request(api.app)
      .post('/entries')
      .set('Authorization', other.auth)
      .set('Idempotency-Key', 'k-1')
      .send(entry({ account: otherAccount, category: otherCategory }))
      .expect(201);
  });

  it('when concurrent retries share a key, then exactly one entry exists', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 5 }, () =>
        request(api.app)
          .post('/entries')
          .set('Authorization', user.auth)
          .set('Idempotency-Key', 'race')
          .send(entry()),
      ),
    );
    expect(attempts.every((answer) => [201, 409].includes(answer.status))).toBe(true);
    expect((await get('/entries').expect(200)).body).toHaveLength(1);
  });
});

describe('transfers over HTTP', () => {
  it('when an entry has transaction, then the companion appears in the other account and PATCH keeps it in step', async () => {
    const savings = await postAccount(api.app, user, { name: 'Savings', currency: { code: 'USD' } });
    const id = await postEntry(
      api.app,
      user,
      entry({ amount: -100, date: '2025-05-09', transaction: { account: savings } }),
    );
    const read = (await get(`/entries/${id}`).expect(200)).body;
    expect(read.transaction).toMatchObject({
      account: savings,
      amount: 100,
      currency: { code: 'EUR', rate: 1.1252 },
    });
    expect(await balanceOf(api.app, user, savings)).toBe(112.52);
    const patched = await request(api.app)
      .patch(`/entries/${id}`)
      .set('Authorization', user.auth)
      .send({ modified: read.modified, amount: -50 })
      .expect(200);
    expect(patched.body.transaction.amount).toBe(50);
    expect(await balanceOf(api.app, user, savings)).toBe(56.26);
    expect(await balanceOf(api.app, user, account)).toBe(-50);
    const listed = await get(`/entries?type=transaction`).expect(200);
    expect(listed.body).toHaveLength(2);
  });
});

describe('PUT, PATCH and DELETE /entries/{id}', () => {
  it('when an entry is replaced with its fetched body changed, then the change is stored and the balance follows', async () => {
    const id = await postEntry(api.app, user, entry());
    const current = (await get(`/entries/${id}`)).body;
    const put = await request(api.app)
      .put(`/entries/${id}`)
      .set('Authorization', user.auth)
      .send({ ...current, amount: -20, desc: 'dinner' })
      .expect(200);
    expect(put.body).toMatchObject({ amount: -20, desc: 'dinner' });
    expect(await balanceOf(api.app, user, account)).toBe(-20);
  });

  it('when two clients edit different fields from the same modified, then both changes survive (merge); same field, 409', async () => {
    const id = await postEntry(api.app, user, entry());
    const base = (await get(`/entries/${id}`)).body;
    await request(api.app)
      .patch(`/entries/${id}`)
      .set('Authorization', user.auth)
      .send({ modified: base.modified, desc: 'a' })
      .expect(200);
    const merged = await request(api.app)
      .patch(`/entries/${id}`)
      .set('Authorization', user.auth)
      .send({ modified: base.modified, amount: -1 })
      .expect(200);
    expect(merged.body).toMatchObject({ desc: 'a', amount: -1 });
    const conflict = await request(api.app)
      .patch(`/entries/${id}`)
      .set('Authorization', user.auth)
      .send({ modified: base.modified, desc: 'b' })
      .expect(409);
    expect(conflict.body.current).toMatchObject({ desc: 'a' });
  });

  it('when an entry is deleted, then 204, it is gone from lists and shows with include_deleted', async () => {
    const id = await postEntry(api.app, user, entry());
    await request(api.app).delete(`/entries/${id}`).set('Authorization', user.auth).expect(204);
    await get(`/entries/${id}`).expect(404);
    expect((await get('/entries').expect(200)).body).toEqual([]);
    await postEntry(api.app, user, entry());
    expect((await get('/entries').expect(200)).headers['x-total-count']).toBe('1');
    const withDeleted = await get('/entries?include_deleted=true&ids=' + id).expect(200);
    expect(withDeleted.body).toEqual([expect.objectContaining({ id, deleted: true })]);
    expect(await balanceOf(api.app, user, account)).toBe(-12.5);
  });
});

describe('GET /entries filters', () => {
  it('when each filter is used, plain and negated, then exactly the matching entries come back', async () => {
    const second = await postAccount(api.app, user, { name: 'Bank', currency: { code: 'EUR' } });
    const tag = await createTag(api.app, user, { name: 'work', type: 'expense' });
    const a = await postEntry(
      api.app,
      user,
      entry({ date: '2025-04-30', desc: 'Coffee beans', tags: [tag] }),
    );
    const b = await postEntry(
      api.app,
      user,
      entry({ date: '2025-05-01', account: second, location: { id: '77', latitude: 46, longitude: 14.5 } }),
    );
    const c = await postEntry(api.app, user, entry({ date: '2025-05-31', amount: 1000, category: salary }));
    const cases: Array<[string, string[]]> = [
      ['from=2025-05-01&to=2025-05-31', [b, c]],
      ['to=2025-04-30', [a]],
      ['type=expense', [a, b]],
      ['type=income', [c]],
      [`accounts=${second}`, [b]],
      [`!accounts=${second}`, [a, c]],
      [`categories=${salary}`, [c]],
      [`!categories=${salary}`, [a, b]],
      [`tags=${tag}`, [a]],
      [`!tags=${tag}`, [b, c]],
      ['locations=77', [b]],
      ['!locations=77', [a, c]],
      ['search=coffee', [a]],
      [`ids=${a},${c}`, [a, c]],
      [`from=2025-05-01&categories=${food}`, [b]],
    ];
    for (const [query, expected] of cases) {
      const answer = await get(`/entries?${query}`);
      expect([query, answer.status, idsOf(answer.body)]).toEqual([query, 200, [...expected].sort()]);
    }
  });

  it('when filters are bad, then 400 names the parameter', async () => {
    for (const [query, field] of [
      ['from=2025-13-01', 'from'],
      ['type=gift', 'type'],
      ['tags=abc', 'tags'],
      ['!categories=1,x', '!categories'],
      ['from=2025-05-02&to=2025-05-01', 'to'],
    ]) {
      const answer = await get(`/entries?${query}`).expect(400);
      expect(answer.body.fields[0].field).toBe(field);
    }
  });

  it('when a filtered list spans pages and then syncs with since, then Link keeps the filters and since returns only changes', async () => {
    const ids = [];
    for (let day = 1; day <= 12; day += 1)
      ids.push(await postEntry(api.app, user, entry({ date: `2025-05-${String(day).padStart(2, '0')}` })));
    await postEntry(api.app, user, entry({ date: '2025-06-01' }));
    const first = await get('/entries?from=2025-05-01&to=2025-05-31&per_page=10').expect(200);
    expect(first.body).toHaveLength(10);
    expect(first.headers['x-total-count']).toBe('12');
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link)![1];
    expect(next).toMatch(/^\/entries\?page=1&per_page=10&from=2025-05-01&to=2025-05-31/);
    const second = await get(next).expect(200);
    expect(idsOf([...first.body, ...second.body])).toEqual([...ids].sort());
    const since = encodeURIComponent(first.headers['service-modified']);
    const current = (await get(`/entries/${ids[0]}`)).body;
    await request(api.app)
      .patch(`/entries/${ids[0]}`)
      .set('Authorization', user.auth)
      .send({ modified: current.modified, desc: 'changed' })
      .expect(200);
    await postEntry(api.app, user, entry({ date: '2025-07-01' }));
    const changes = await get(`/entries?since=${since}&from=2025-05-01&to=2025-05-31`).expect(200);
    expect(idsOf(changes.body)).toEqual([ids[0]]);
  });
});

describe('isolation across users', () => {
  it('when another user names an entry on any route, then 404 and nothing changes', async () => {
    const id = await postEntry(api.app, user, entry());
    const stranger = await createTestUser(api.deps);
    const as = (r: request.Test) => r.set('Authorization', stranger.auth);
    await as(request(api.app).get(`/entries/${id}`)).expect(404);
    await as(request(api.app).put(`/entries/${id}`))
      .send({ ...entry(), modified: '2025-01-01 00:00:00.000' })
      .expect(404);
    await as(request(api.app).patch(`/entries/${id}`))
      .send({ amount: 1, modified: '2025-01-01 00:00:00.000' })
      .expect(404);
    await as(request(api.app).delete(`/entries/${id}`)).expect(404);
    expect((await as(request(api.app).get(`/entries?ids=${id}`)).expect(200)).body).toEqual([]);
    expect(
      (await as(request(api.app).get('/entries/sums?from=2025-01-01&to=2025-12-31&currency=EUR')).expect(200))
        .body,
    ).toEqual([]);
    await as(request(api.app).post('/entries/manage'))
      .send({ with: { accounts: [account] }, set: { category: food } })
      .expect(204);
    expect((await get(`/entries/${id}`).expect(200)).body.amount).toBe(-12.5);
    const strangerAccount = await postAccount(api.app, stranger, { name: 'S', currency: { code: 'EUR' } });
    const strangerCategory = await createCategory(api.app, stranger, { name: 'S', type: 'expense' });
    const foreignTag = await createTag(api.app, user, { name: 'mine', type: 'expense' });
    const answer = await as(request(api.app).post('/entries'))
      .send(entry({ account: strangerAccount, category: food, tags: [foreignTag], transaction: { account } }))
      .expect(400);
    expect(answer.body.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      'category',
      'tags.0',
      'transaction.account',
    ]);
    void strangerCategory;
  });

  it('when the token lacks entries scopes, then 403 names the scope', async () => {
    const reader = await createTestUser(api.deps, 'entries:r');
    await get('/entries', reader).expect(200);
    const answer = await request(api.app)
      .post('/entries')
      .set('Authorization', reader.auth)
      .send(entry())
      .expect(403);
    expect(answer.body.description).toContain('entries:rw');
    const none = await createTestUser(api.deps, 'user:r');
    await get('/entries', none).expect(403);
  });
});

describe('POST /entries/manage', () => {
  it('when tags are added, removed or set by filter, then only matching entries change', async () => {
    const t1 = await createTag(api.app, user, { name: 't1', type: 'expense' });
    const t2 = await createTag(api.app, user, { name: 't2', type: 'expense' });
    const second = await postAccount(api.app, user, { name: 'Bank', currency: { code: 'EUR' } });
    const a = await postEntry(api.app, user, entry({ tags: [t1] }));
    const b = await postEntry(api.app, user, entry({ account: second }));
    await request(api.app)
      .post('/entries/manage')
      .set('Authorization', user.auth)
      .send({ with: { tags: [t1] }, add: { tags: [t2] } })
      .expect(204);
    expect((await get(`/entries/${a}`)).body.tags.sort()).toEqual([t1, t2].sort());
    await request(api.app)
      .post('/entries/manage')
      .set('Authorization', user.auth)
      .send({ with: { accounts: [account] }, remove: { tags: [t1] }, set: { category: salary } })
      .expect(204);
    expect((await get(`/entries/${a}`)).body).toMatchObject({ tags: [t2], category: salary });
    expect((await get(`/entries/${b}`)).body).toMatchObject({ category: food });
    await request(api.app)
      .post('/entries/manage')
      .set('Authorization', user.auth)
      .send({ with: { accounts: [account] }, set: { account: second } })
      .expect(204);
    expect(await balanceOf(api.app, user, second)).toBe(-25);
    expect(await balanceOf(api.app, user, account)).toBe(0);
    const bad = await request(api.app)
      .post('/entries/manage')
      .set('Authorization', user.auth)
      .send({ with: {}, set: {} })
      .expect(400);
    expect(bad.body.fields[0].field).toBe('with');
  });
});

describe('POST /entries/manage on transfers', () => {
  it('when a bulk change touches a transfer, then both sides stay linked and balances hold', async () => {
    const savings = await postAccount(api.app, user, { name: 'Savings', currency: { code: 'EUR' } });
    const tag = await createTag(api.app, user, { name: 'moved', type: 'expense' });
    const id = await postEntry(api.app, user, entry({ amount: -40, transaction: { account: savings } }));
    await request(api.app)
      .post('/entries/manage')
      .set('Authorization', user.auth)
      .send({ with: { accounts: [account] }, add: { tags: [tag] } })
      .expect(204);
    const read = (await get(`/entries/${id}`).expect(200)).body;
    expect(read).toMatchObject({ tags: [tag], transaction: { account: savings, amount: 40 } });
    expect(await balanceOf(api.app, user, savings)).toBe(40);
    await request(api.app)
      .post('/entries/manage')
      .set('Authorization', user.auth)
      .send({ with: { accounts: [account] }, set: { account: savings } })
      .expect(204);
    expect((await get(`/entries/${id}`).expect(200)).body).not.toHaveProperty('transaction');
    expect(await balanceOf(api.app, user, savings)).toBe(0);
  });
});

describe('transfers kept in step by whole-object writes', () => {
  it('when a fetched transfer is PUT back with a new amount, then the companion follows', async () => {
    const savings = await postAccount(api.app, user, { name: 'Savings', currency: { code: 'EUR' } });
    const id = await postEntry(api.app, user, entry({ amount: -100, transaction: { account: savings } }));
    const fetched = (await get(`/entries/${id}`).expect(200)).body;
    const put = await request(api.app)
      .put(`/entries/${id}`)
      .set('Authorization', user.auth)
      .send({ ...fetched, amount: -150 })
      .expect(200);
    expect(put.body.transaction).toMatchObject({ account: savings, amount: 150 });
    expect(await balanceOf(api.app, user, savings)).toBe(150);
  });

  it('when a transfer into another currency had its own amount, then edits keep that currency and exchange ratio', async () => {
    const dollars = await postAccount(api.app, user, { name: 'Dollars', currency: { code: 'USD' } });
    const id = await postEntry(
      api.app,
      user,
      entry({ amount: -100, transaction: { account: dollars, amount: 110, currency: { code: 'USD' } } }),
    );
    const fetched = (await get(`/entries/${id}`).expect(200)).body;
    expect(fetched.transaction).toMatchObject({ account: dollars, amount: 110, currency: { code: 'USD' } });
    const renamed = await request(api.app)
      .patch(`/entries/${id}`)
      .set('Authorization', user.auth)
      .send({ modified: fetched.modified, desc: 'fx' })
      .expect(200);
    expect(renamed.body.transaction).toMatchObject({ amount: 110, currency: { code: 'USD' } });
    const doubled = await request(api.app)
      .patch(`/entries/${id}`)
      .set('Authorization', user.auth)
      .send({ modified: renamed.body.modified, amount: -200 })
      .expect(200);
    expect(doubled.body.transaction).toMatchObject({ amount: 220, currency: { code: 'USD' } });
    expect(await balanceOf(api.app, user, dollars)).toBe(220);
    const resent = await request(api.app)
      .put(`/entries/${id}`)
      .set('Authorization', user.auth)
      .send({ ...doubled.body, desc: 'again' })
      .expect(200);
    expect(resent.body.transaction).toMatchObject({ amount: 220 });
  });
});

describe('extra on entries', () => {
  it('when extra is stored, then it comes back unchanged; when it is too large on create or update, then 400 names it', async () => {
    const id = await postEntry(api.app, user, entry({ extra: { app: { nested: [1, null, 'x'] } } }));
    const read = (await get(`/entries/${id}`).expect(200)).body;
    expect(read.extra).toEqual({ app: { nested: [1, null, 'x'] } });
    const huge = { blob: 'x'.repeat(20_000) };
    const created = await request(api.app)
      .post('/entries')
      .set('Authorization', user.auth)
      .send(entry({ extra: huge }))
      .expect(400);
    expect(created.body.fields[0].field).toBe('extra');
    const updated = await request(api.app)
      .patch(`/entries/${id}`)
      .set('Authorization', user.auth)
      .send({ modified: read.modified, extra: huge })
      .expect(400);
    expect(updated.body.fields[0].field).toBe('extra');
  });
});

describe('parallel writers over HTTP', () => {
  it('when many POSTs and transfers arrive at once, then every balance equals its entries exactly', async () => {
    const other = await postAccount(api.app, user, { name: 'Other', currency: { code: 'EUR' } });
    const bodies = Array.from({ length: 24 }, (_, i) =>
      i % 3 === 0
        ? entry({
            amount: -(i + 0.25),
            transaction: { account: i % 2 ? other : account },
            account: i % 2 ? account : other,
          })
        : entry({ amount: i % 2 ? i + 0.1 : -(i + 0.3), account: i % 2 ? other : account }),
    );
    const answers = await Promise.all(
      bodies.map((body) => request(api.app).post('/entries').set('Authorization', user.auth).send(body)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(bodies.map(() => 201));
    const listed = (await get('/entries?per_page=100').expect(200)).body as Array<{
      account: string;
      amount: number;
    }>;
    expect(listed).toHaveLength(32);
    for (const id of [account, other]) {
      const cents = listed
        .filter((item) => item.account === id)
        .reduce((sum, item) => sum + Math.round(item.amount * 100), 0);
      expect(Math.round((await balanceOf(api.app, user, id)) * 100)).toBe(cents);
    }
  });
});
