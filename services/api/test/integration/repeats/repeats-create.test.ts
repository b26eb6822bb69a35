import request from 'supertest';
import { type ApiTestApp, startApiTestApp } from '../../support/api-test-app';
import { balanceOf } from '../ledger/ledger-http';
import { createRepeatUser, entryBody, listAll, postRepeating, type RepeatUser } from './repeat-support';

let api: ApiTestApp;
let user: RepeatUser;
beforeAll(async () => {
  api = await startApiTestApp();
});
afterAll(() => api.close());
beforeEach(async () => {
  user = await createRepeatUser(api);
});

describe('POST /entries with repeat', () => {
  it('when a monthly series on the last day of the month is posted, then each due occurrence is an entry and Location is iteration 0', async () => {
    const answer = await postRepeating(
      api,
      user,
      entryBody(user, {
        repeat: {
          start: '2025-01-31',
          frequency: 'monthly',
          interval: 1,
          bymonthday: '28,29,30,31',
          bysetpos: -1,
          count: 5,
        },
      }),
    ).expect(201);
    const entries = await listAll(api, user);
    expect(entries.map((entry) => entry.date)).toEqual([
      '2025-01-31',
      '2025-02-28',
      '2025-03-31',
      '2025-04-30',
      '2025-05-31',
    ]);
    expect(entries.map((entry) => entry.repeat.iteration)).toEqual([0, 1, 2, 3, 4]);
    expect(String(answer.headers.location).split('/').pop()).toBe(entries[0].id);
    expect(entries[0].repeat).toMatchObject({
      start: '2025-01-31',
      frequency: 'monthly',
      interval: 1,
      bymonthday: '28,29,30,31',
      bysetpos: '-1',
      count: 5,
      type: 'automatic',
      status: 'ok',
      template: false,
    });
    expect(await balanceOf(api.app, user, user.account)).toBe(-50);
  });

  it('when the rule breaks the rules, then 400 names each field and nothing is created', async () => {
    const answer = await postRepeating(
      api,
      user,
      entryBody(user, {
        repeat: { start: '2025-01-31', frequency: 'fortnightly', interval: 200, byday: 'XX' },
      }),
    ).expect(400);
    expect(answer.body.fields.map((field: { field: string }) => field.field).sort()).toEqual(
      expect.arrayContaining(['repeat.frequency', 'repeat.interval']),
    );
    const missing = await postRepeating(
      api,
      user,
      entryBody(user, { repeat: { frequency: 'daily', interval: 1 } }),
    );
    expect(missing.status).toBe(400);
    expect(missing.body.fields[0].field).toBe('repeat.start');
    const backlog = await postRepeating(
      api,
      user,
      entryBody(user, { repeat: { start: '2015-01-01', frequency: 'daily', interval: 1 } }),
    ).expect(400);
    expect(backlog.body.fields[0]).toMatchObject({ field: 'repeat.start' });
    const batch = await request(api.app)
      .post('/entries')
      .set('Authorization', user.auth)
      .send([entryBody(user, { repeat: { start: '2025-01-31', frequency: 'daily', interval: 1, count: 2 } })])
      .expect(400);
    expect(batch.body.fields[0].field).toBe('0.repeat');
    expect(await listAll(api, user)).toEqual([]);
  });

  it("when the series names another user's category, then 400 and nothing is created", async () => {
    const other = await createRepeatUser(api);
    const answer = await postRepeating(
      api,
      user,
      entryBody(user, {
        category: other.category,
        repeat: { start: '2025-01-01', frequency: 'daily', interval: 1, count: 3 },
      }),
    ).expect(400);
    expect(answer.body.fields[0].field).toBe('category');
    expect(await listAll(api, user)).toEqual([]);
    expect(await listAll(api, other)).toEqual([]);
  });

  it('when a repeating POST is retried with the same Idempotency-Key, then the series is created once', async () => {
    const body = entryBody(user, {
      repeat: { start: '2025-01-01', frequency: 'weekly', interval: 1, count: 3 },
    });
    const first = await postRepeating(api, user, body).set('Idempotency-Key', 'rent-1').expect(201);
    const again = await postRepeating(api, user, body).set('Idempotency-Key', 'rent-1').expect(201);
    expect(again.headers.location).toBe(first.headers.location);
    expect(await listAll(api, user)).toHaveLength(3);
  });
});
