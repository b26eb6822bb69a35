import request from 'supertest';
import { ApiTestApp, createTestUser, issueToken, startApiTestApp, TestUser } from '../support/api-test-app';
import { strictProblems } from './strict-schemas';

/**
 * Replays, byte for byte, what existing Toshl clients send (toshl-api-facts.md §0b, issue 10) and checks
 * what they check: status, Location, the body's fields and formats, Link and X-Total-Count, and that a
 * client whose models are generated from Toshl's schemas (unknown keys rejected) parses every object.
 */
describe('compat: what existing Toshl clients send and check', () => {
  let t: ApiTestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await startApiTestApp();
    user = await createTestUser(t.deps);
  });
  afterAll(() => t.close());

  /** A request with the body as exact bytes, the way the clients serialise it. */
  const send = (method: 'post' | 'put', path: string, raw: string, auth = user.auth) =>
    request(t.app)[method](path).set('Authorization', auth).set('Content-Type', 'application/json').send(raw);
  const get = (path: string, headers: Record<string, string> = {}) =>
    request(t.app)
      .get(path)
      .set({ Authorization: user.auth, ...headers });
  const idOf = (location: string) => location.split('/').pop()!;
  const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

  /** Creates through the API the way a client does, checking both the body and Location. */
  async function create(path: string, raw: string, kind: string): Promise<Record<string, unknown>> {
    const answer = await send('post', path, raw);
    if (answer.status !== 201) throw new Error(`POST ${path} ${answer.status}: ${answer.text}`);
    const id = idOf(answer.headers.location);
    expect(answer.headers.location).toBe(`http://127.0.0.1:3000${path}/${id}`);
    expect(answer.body.id).toBe(id);
    const fetched = await get(`${path}/${id}`).expect(200);
    expect(answer.headers['content-type']).toBe(fetched.headers['content-type']);
    expect(answer.body).toEqual(fetched.body);
    expect(strictProblems(kind, answer.body)).toEqual([]);
    return answer.body;
  }

  it('when writes carry zero-valued placeholders and string booleans, then they are unset, never stored', async () => {
    const account = await create(
      '/accounts',
      '{"name":"Cash","parent":0,"type":"","limit":"","currency":{"code":"EUR"},"goal":{"amount":0,"start":"","end":""},"order":0}',
      'account',
    );
    expect(account).not.toHaveProperty('goal');
    expect(account).not.toHaveProperty('parent');
    expect(account).toMatchObject({ order: 0, balance: 0 });
    const category = await create(
      '/categories',
      '{"name":"Food","type":"expense","extra":{"a":""}}',
      'category',
    );
    expect(category.extra).toEqual({ a: '' });
    const tag = await create('/tags', '{"name":"lunch","type":"expense","category":"0"}', 'tag');
    expect(tag).not.toHaveProperty('category');
    const entry = await create(
      '/entries',
      `{"amount":-12.5,"currency":{"code":"EUR","rate":0,"fixed":"false"},"date":"2024-03-05","desc":"","account":"${account.id}","category":"${category.id}","tags":["${tag.id}"],"transaction":{"account":"","amount":0},"repeat":{"frequency":"","interval":0,"start":"","end":"","count":0},"completed":"true","location":{"latitude":46.05,"longitude":14.5},"reminders":[{"period":"day","number":1,"at":"09:00:00"}]}`,
      'entry',
    );
    expect(entry).toMatchObject({ amount: -12.5, date: '2024-03-05', completed: true, tags: [tag.id] });
    expect(entry.currency).toEqual({ code: 'EUR', rate: 1, main_rate: 1, fixed: false });
    expect(entry).not.toHaveProperty('transaction');
    expect(entry).not.toHaveProperty('repeat');
    expect(entry.created).toMatch(RFC3339);
    expect(entry.modified).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/);

    // A placeholder the field accepts is a value; a member of `extra` is never touched.
    const half = await send(
      'post',
      '/accounts',
      '{"name":"Half","currency":{"code":"EUR"},"goal":{"amount":50,"start":"","end":""}}',
    );
    expect(half.status).toBe(400);
    expect(half.body.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      'goal.end',
      'goal.start',
    ]);

    // Merge bodies go through the same step: `"category": 0` is no second target.
    const other = await create('/tags', '{"name":"dinner","type":"expense"}', 'tag');
    await send('post', '/tags/merge', `{"tags":["${other.id}"],"tag":"${tag.id}","category":0}`).expect(204);
  });

  it('when whole fetched objects are sent back on PUT, then read-only fields are ignored and the write applies', async () => {
    const account = await create(
      '/accounts',
      '{"name":"Bank","currency":{"code":"EUR"},"initial_balance":10}',
      'account',
    );
    const changed = await send(
      'put',
      `/accounts/${account.id}`,
      JSON.stringify({ ...account, name: 'Bank 2' }),
    ).expect(200);
    expect(changed.body).toMatchObject({ id: account.id, name: 'Bank 2', balance: 10 });
    expect(strictProblems('account', changed.body)).toEqual([]);

    const budget = await create(
      '/budgets',
      '{"name":"Food","type":"regular","limit":300,"currency":{"code":"EUR","rate":0},"recurrence":{"frequency":"monthly","interval":1,"start":"2025-05-01","end":""},"rollover":"false","percent":0}',
      'budget',
    );
    const budgetAgain = await send(
      'put',
      `/budgets/${budget.id}`,
      JSON.stringify({ ...budget, limit: 250 }),
    ).expect(200);
    expect(budgetAgain.body).toMatchObject({ id: budget.id, limit: 250 });
    expect(budgetAgain.body).not.toHaveProperty('created');

    const me = (await get('/me').expect(200)).body;
    expect(strictProblems('me', me)).toEqual([]);
    const meAgain = await send(
      'put',
      '/me',
      JSON.stringify({ ...me, first_name: 'Grace', start_day: 0 }),
    ).expect(200);
    expect(meAgain.body).toMatchObject({ first_name: 'Grace', start_day: 1 });
  });

  it('when PUT /me carries a modified never issued, then 400 error.modified.invalid; an issued stale one is 409', async () => {
    const fresh = await createTestUser(t.deps);
    const me = (await request(t.app).get('/me').set('Authorization', fresh.auth).expect(200)).body;
    const never = await send(
      'put',
      '/me',
      JSON.stringify({ ...me, modified: '2001-02-03 04:05:06.789' }),
      fresh.auth,
    );
    expect(never.status).toBe(400);
    expect(never.body).toMatchObject({ error_id: 'error.modified.invalid', fields: [{ field: 'modified' }] });
    await send('put', '/me', JSON.stringify({ ...me, first_name: 'One' }), fresh.auth).expect(200);
    const stale = await send('put', '/me', JSON.stringify({ ...me, first_name: 'Two' }), fresh.auth);
    expect(stale.status).toBe(409);
  });

  it('when a page lies far past the end, then an empty 200 with its links and the total', async () => {
    const pager = await createTestUser(t.deps);
    for (const page of ['7', '99999999999999999999999999']) {
      const answer = await request(t.app)
        .get(`/categories?page=${page}&per_page=10&type=expense`)
        .set('Authorization', pager.auth)
        .expect(200);
      expect(answer.body).toEqual([]);
      expect(answer.headers.link).toBe(
        '</categories?page=0&per_page=10&type=expense>; rel="first", </categories?page=0&per_page=10&type=expense>; rel="previous", </categories?page=0&per_page=10&type=expense>; rel="last"',
      );
      expect(answer.headers['x-total-count']).toBe('0');
    }
    await request(t.app).get('/categories?page=-1').set('Authorization', pager.auth).expect(400);
  });

  it('when a personal token comes as Basic `token:` or Bearer, with any Accept clients send, then every representation parses strictly', async () => {
    const personal = await issueToken(
      t.deps,
      user.userId,
      'user:r accounts:r entries:r categories:r tags:r budgets:r',
      {
        kind: 'personal',
        token_id: `pt-${user.userId}`,
      },
    );
    const basic = `Basic ${Buffer.from(`${personal.token}:`).toString('base64')}`;
    const lists: Array<[string, string]> = [
      ['/accounts', 'account'],
      ['/entries?from=2024-01-01&to=2024-12-31', 'entry'],
      ['/categories', 'category'],
      ['/tags', 'tag'],
      ['/budgets?from=2025-05-01&to=2025-05-31', 'budget'],
      ['/currencies', 'currency'],
    ];
    const accepts = ['application/json', 'application/vnd.service+json,application/json', undefined];
    for (const [index, [path, kind]] of lists.entries()) {
      const accept = accepts[index % accepts.length];
      const answer = await request(t.app)
        .get(path)
        .set({ Authorization: index % 2 ? basic : personal.auth, ...(accept ? { Accept: accept } : {}) });
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      expect(answer.body.length).toBeGreaterThan(0);
      for (const item of answer.body)
        expect({ path, problems: strictProblems(kind, item) }).toEqual({ path, problems: [] });
      if (kind !== 'currency') {
        expect(answer.headers['x-total-count']).toMatch(/^\d+$/);
        expect(answer.headers.link).toMatch(/^<\/[a-z]+\?page=0&per_page=\d+[^>]*>; rel="first"/);
      }
    }
    const me = await request(t.app).get('/me').set('Authorization', basic).expect(200);
    expect(strictProblems('me', me.body)).toEqual([]);
  });

  it('when a push token does not have the kind of its type, then 400 naming token', async () => {
    const hex = 'a1'.repeat(32);
    const fcm = `cXyZ:APA91b${'Q_-9'.repeat(40)}`;
    const wns = 'https://db5.notify.windows.com/?token=AwYAAAD%2bsomething';
    for (const [type, token] of [
      ['apple', hex],
      ['apple_fcm', fcm],
      ['google', fcm],
      ['windows', wns],
    ]) {
      await send('post', '/me/push', JSON.stringify({ type, token })).expect(204);
    }
    const wrong: Array<[string, string]> = [
      ['apple', fcm],
      ['apple', 'a1b'],
      ['google', hex],
      ['apple_fcm', wns],
      ['windows', 'http://db5.notify.windows.com/?token=x'],
      ['windows', 'https://notify.windows.com.evil.example/?token=x'],
      ['windows', fcm],
    ];
    for (const [type, token] of wrong) {
      const answer = await send('post', '/me/push', JSON.stringify({ type, token }));
      expect({ type, token, status: answer.status, field: answer.body.fields?.[0]?.field }).toEqual({
        type,
        token,
        status: 400,
        field: 'token',
      });
    }
  });
});
