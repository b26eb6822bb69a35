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
});
