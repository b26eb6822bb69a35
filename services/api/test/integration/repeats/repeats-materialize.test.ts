import request from 'supertest';
import { type ApiTestApp, startApiTestApp } from '../../support/api-test-app';
import { ledgerDepsOf } from '../../../src/ledger-deps';
import { materializeDueRepeats } from '../../../src/modules/repeats/repeat-series.use-case';
import { MATERIALIZER_LOCK_KEY, startRepeatTimer } from '../../../src/modules/repeats/repeat-timer';
import { testLogger } from '@pfs/testing';
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

/** A daily series far in the future of the real clock: POST creates only iteration 0. */
async function postFutureDaily(who: RepeatUser = user) {
  await postRepeating(
    api,
    who,
    entryBody(who, { date: '2030-01-01', repeat: { start: '2030-01-01', frequency: 'daily', interval: 1 } }),
  ).expect(201);
}
const materialize = (today: string | Date, users: string[] = [user.userId]) =>
  materializeDueRepeats(ledgerDepsOf(api.deps), today, { onlyUsers: users });

describe('materializeDueRepeats', () => {
  it('when days pass, then the due occurrences appear once, however often it runs', async () => {
    await postFutureDaily();
    expect((await listAll(api, user)).map((entry) => entry.date)).toEqual(['2030-01-01']);
    expect(await materialize('2030-01-05')).toEqual({ series: 1, created: 4 });
    expect(await materialize('2030-01-05')).toEqual({ series: 0, created: 0 });
    const [a, b] = await Promise.all([materialize('2030-01-07'), materialize('2030-01-07')]);
    expect(a.created + b.created).toBe(2);
    const entries = await listAll(api, user);
    expect(entries.map((entry) => entry.date)).toEqual([
      '2030-01-01',
      '2030-01-02',
      '2030-01-03',
      '2030-01-04',
      '2030-01-05',
      '2030-01-06',
      '2030-01-07',
    ]);
    expect(entries.map((entry) => entry.repeat.iteration)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(await balanceOf(api.app, user, user.account)).toBe(-70);
  });

  it("when users live in different timezones, then each one's today decides", async () => {
    const east = await createRepeatUser(api);
    await api.deps.dataSource.query(`UPDATE users SET timezone = 'Pacific/Kiritimati' WHERE id = $1`, [
      east.userId,
    ]);
    await postFutureDaily();
    await postFutureDaily(east);
    // 12:00 UTC on the 3rd is already the 4th at UTC+14.
    await materialize(new Date('2030-01-03T12:00:00Z'), [user.userId, east.userId]);
    expect((await listAll(api, user)).map((entry) => entry.date).pop()).toBe('2030-01-03');
    expect((await listAll(api, east)).map((entry) => entry.date).pop()).toBe('2030-01-04');
  });

  it('when many series are due only tomorrow in their zone, then they neither fill the batch ahead of due ones nor move any watermark', async () => {
    const noon = new Date('2030-01-03T12:00:00Z');
    await postFutureDaily();
    await postFutureDaily();
    await materialize(noon);
    // Both of the user's series are now at 2030-01-04: tomorrow for them, though within UTC's tomorrow.
    const later = await createRepeatUser(api);
    await postFutureDaily(later);
    const watermark = async () =>
      (
        await api.deps.dataSource.query(
          `SELECT change_seq::text AS seq FROM user_sync_state WHERE user_id = $1`,
          [user.userId],
        )
      )[0].seq;
    const before = await watermark();
    const result = await materializeDueRepeats(ledgerDepsOf(api.deps), noon, {
      onlyUsers: [user.userId, later.userId],
      batchSize: 1,
      maxBatches: 1,
    });
    expect(result).toEqual({ series: 1, created: 2 });
    expect((await listAll(api, later)).map((entry) => entry.date)).toEqual([
      '2030-01-01',
      '2030-01-02',
      '2030-01-03',
    ]);
    expect(await watermark()).toBe(before);
  });

  it('when batches are small, then one run still reaches every due series within its bound', async () => {
    await postFutureDaily();
    await postFutureDaily();
    await postFutureDaily();
    const result = await materializeDueRepeats(ledgerDepsOf(api.deps), '2030-01-02', {
      onlyUsers: [user.userId],
      batchSize: 1,
      maxBatches: 1000,
    });
    expect(result.created).toBe(3);
  });
});

describe('series whose references were deleted', () => {
  it('when the category is deleted, then later occurrences have none; when the account is deleted, then the series ends', async () => {
    await postFutureDaily();
    await request(api.app).delete(`/categories/${user.category}`).set('Authorization', user.auth).expect(204);
    await materialize('2030-01-02');
    const entries = await listAll(api, user);
    expect(entries.map((entry) => [entry.date, entry.category])).toEqual([
      ['2030-01-01', undefined],
      ['2030-01-02', undefined],
    ]);
    await request(api.app).delete(`/accounts/${user.account}`).set('Authorization', user.auth).expect(204);
    const planned = await request(api.app)
      .get('/entries?from=2030-01-01&to=2030-01-31&expand=true')
      .set('Authorization', user.auth)
      .expect(200);
    expect(planned.body).toEqual([]);
    expect(await materialize('2030-01-05')).toEqual({ series: 0, created: 0 });
    const [series] = await api.deps.dataSource.query(
      `SELECT deleted, next_date FROM repeats WHERE user_id = $1`,
      [user.userId],
    );
    expect(series).toEqual({ deleted: true, next_date: null });
  });
});

describe('the repeat timer', () => {
  it('when another process holds the lock, then a pass skips; once free, it runs and stops cleanly', async () => {
    // Another connection of the pool stands for another API process, holding the lock as a pass does: in an
    // open transaction (a transaction-level lock, which also holds through PgBouncer in transaction mode).
    const holder = api.deps.dataSource.createQueryRunner();
    await holder.connect();
    const timer = startRepeatTimer(ledgerDepsOf(api.deps), testLogger(), 0);
    try {
      await holder.startTransaction();
      await holder.query(`SELECT pg_advisory_xact_lock($1)`, [MATERIALIZER_LOCK_KEY]);
      expect(await timer.runOnce()).toBe('locked');
      await holder.rollbackTransaction();
      expect(await timer.runOnce()).toMatchObject({ created: expect.any(Number) });
    } finally {
      await timer.stop();
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
  });
});
