import request from 'supertest';
import { type ApiTestApp, createTestUser, startApiTestApp } from '../../support/api-test-app';
import { ledgerDepsOf } from '../../../src/ledger-deps';
import { materializeDueRepeats } from '../../../src/modules/repeats/repeat-series.use-case';
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

/** A weekly series of six Mondays, all in the past: 2025-01-06 … 2025-02-10. */
const weekly = (extra: Record<string, unknown> = {}) =>
  entryBody(user, {
    date: '2025-01-06',
    repeat: { start: '2025-01-06', frequency: 'weekly', interval: 1, count: 6 },
    ...extra,
  });

async function postSeries(extra: Record<string, unknown> = {}) {
  await postRepeating(api, user, weekly(extra)).expect(201);
  return listAll(api, user);
}

const put = (id: string, body: Record<string, unknown>, query = '') =>
  request(api.app).put(`/entries/${id}${query}`).set('Authorization', user.auth).send(body);
const patch = (id: string, body: Record<string, unknown>, query = '') =>
  request(api.app).patch(`/entries/${id}${query}`).set('Authorization', user.auth).send(body);
const del = (id: string, query = '') =>
  request(api.app).delete(`/entries/${id}${query}`).set('Authorization', user.auth);

describe('images on repeating entries', () => {
  const image = async () =>
    (
      await api.deps.dataSource.query(
        `INSERT INTO images (user_id, type, status, content_type, storage_prefix, modified_at, change_seq)
         VALUES ($1, 'image', 'uploaded', 'image/jpeg', 'images/test', now(), 0) RETURNING id::text AS id`,
        [user.userId],
      )
    )[0].id as string;
  const imageIds = (entry: { images?: Array<{ id: string }> }) => (entry.images ?? []).map((one) => one.id);

  it('when a series is posted with images, then the posted occurrence keeps them and the others start without', async () => {
    const receipt = await image();
    const entries = await postSeries({ images: [{ id: receipt }], completed: true });
    expect(entries.map(imageIds)).toEqual([[receipt], [], [], [], [], []]);
    expect(entries.map((entry) => entry.completed)).toEqual([true, false, false, false, false, false]);
  });

  it('when the series is edited with all or tail, then each occurrence keeps its own images', async () => {
    const [first, second, third] = [await image(), await image(), await image()];
    const entries = await postSeries({ images: [{ id: first }] });
    await patch(
      entries[2].id,
      { modified: entries[2].modified, images: [{ id: second }] },
      '?update=one',
    ).expect(200);
    const edited = (await listAll(api, user))[1];
    await patch(edited.id, { modified: edited.modified, desc: 'rent', images: [{ id: third }] }).expect(200);
    const after = await listAll(api, user);
    expect(after.map((entry) => entry.desc)).toEqual(Array(6).fill('rent'));
    expect(after.map(imageIds)).toEqual([[first], [third], [second], [], [], []]);
    await patch(after[3].id, { modified: after[3].modified, amount: -12 }, '?update=tail').expect(200);
    expect((await listAll(api, user)).map(imageIds)).toEqual([[first], [third], [second], [], [], []]);
  });
});

describe('bounds of series edits', () => {
  it('when update=all would rewrite more than 1,000 occurrences, then 400 names update and nothing changes', async () => {
    const entries = await postSeries();
    const seriesId = entries[0].repeat.id;
    // Stand-ins for a long-lived series' occurrences (only their count matters here).
    await api.deps.dataSource.query(
      `INSERT INTO entries (user_id, account_id, category_id, amount, currency, rate, account_amount, date,
                            modified_at, change_seq, repeat_id, iteration)
       SELECT $1, $2, $3, -1, 'EUR', 1, -1, DATE '2025-03-01' + g, now(), 0, $4, 5 + g FROM generate_series(1, 1000) g`,
      [user.userId, user.account, user.category, seriesId],
    );
    const refused = await patch(entries[0].id, { modified: entries[0].modified, desc: 'x' }).expect(400);
    expect(refused.body.fields[0]).toEqual({
      field: 'update',
      error:
        'would rewrite 1006 occurrences (at most 1000 at once): use update=tail from a later occurrence, or update=one',
    });
    const one = await patch(
      entries[0].id,
      { modified: entries[0].modified, desc: 'x' },
      '?update=one',
    ).expect(200);
    const tooMany = await patch(
      entries[0].id,
      { modified: one.body.modified },
      '?delete_after_count=100001',
    ).expect(400);
    expect(tooMany.body.fields).toEqual([
      { field: 'delete_after_count', error: 'must be an integer from 1 to 100000' },
    ]);
  });
});

describe('PUT/PATCH ?update=all|one|tail', () => {
  it('when an occurrence is edited with the default (all), then every occurrence takes the change and keeps its date', async () => {
    const entries = await postSeries();
    const answer = await patch(entries[2].id, {
      amount: -25,
      desc: 'rent',
      modified: entries[2].modified,
    }).expect(200);
    expect(answer.body).toMatchObject({ amount: -25, desc: 'rent', date: '2025-01-20' });
    const after = await listAll(api, user);
    expect(after.map((entry) => [entry.id, entry.date, entry.amount, entry.desc])).toEqual(
      entries.map((entry) => [entry.id, entry.date, -25, 'rent']),
    );
    expect(await balanceOf(api.app, user, user.account)).toBe(-150);
  });

  it('when one occurrence is edited with update=one, then only it changes; a later update=all overwrites it (documented)', async () => {
    const entries = await postSeries();
    await patch(
      entries[1].id,
      { amount: -99, date: '2025-01-14', modified: entries[1].modified },
      '?update=one',
    ).expect(200);
    let after = await listAll(api, user);
    expect(after.map((entry) => entry.amount)).toEqual([-10, -99, -10, -10, -10, -10]);
    expect(after[1]).toMatchObject({ date: '2025-01-14', repeat: { iteration: 1 } });
    expect(await balanceOf(api.app, user, user.account)).toBe(-149);
    await patch(entries[0].id, { amount: -11, modified: entries[0].modified }, '?update=all').expect(200);
    after = await listAll(api, user);
    expect(after.map((entry) => entry.amount)).toEqual([-11, -11, -11, -11, -11, -11]);
    expect(after[1].date).toBe('2025-01-13');
  });

  it('when occurrence 3 is edited with update=tail, then 0–2 stay and 3–5 change and form a new series', async () => {
    const entries = await postSeries();
    await patch(entries[3].id, { amount: -20, modified: entries[3].modified }, '?update=tail').expect(200);
    const after = await listAll(api, user);
    expect(after.map((entry) => entry.id)).toEqual(entries.map((entry) => entry.id));
    expect(after.map((entry) => entry.amount)).toEqual([-10, -10, -10, -20, -20, -20]);
    const [head, tail] = [after[0].repeat, after[3].repeat];
    expect(head).toMatchObject({ end: '2025-01-26' });
    expect(head).not.toHaveProperty('count');
    expect(tail.id).not.toBe(head.id);
    expect(tail).toMatchObject({ start: '2025-01-27', count: 3 });
    expect(after.slice(3).map((entry) => entry.repeat.iteration)).toEqual([0, 1, 2]);
    expect(await balanceOf(api.app, user, user.account)).toBe(-90);
    const series = await request(api.app)
      .get(`/entries?repeat=${head.id}`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(series.body).toHaveLength(3);
  });

  it('when the rule changes with update=all, then the occurrences move to the new dates and the extra ones are deleted', async () => {
    const entries = await postSeries();
    const answer = await put(entries[0].id, {
      ...weekly({ repeat: { start: '2025-01-06', frequency: 'weekly', interval: 2, count: 3 } }),
      modified: entries[0].modified,
    }).expect(200);
    expect(answer.body.repeat).toMatchObject({ interval: 2, count: 3, iteration: 0 });
    const after = await listAll(api, user);
    expect(after.map((entry) => entry.date)).toEqual(['2025-01-06', '2025-01-20', '2025-02-03']);
    expect(after.map((entry) => entry.id)).toEqual(entries.slice(0, 3).map((entry) => entry.id));
    expect(await balanceOf(api.app, user, user.account)).toBe(-30);
  });

  it('when a PUT names delete_after_count, then the series ends there', async () => {
    const entries = await postSeries();
    // A cut never lengthens a series: its own count of 6 comes first.
    await put(entries[0].id, { ...weekly(), modified: entries[0].modified }, '?delete_after_count=10').expect(
      200,
    );
    const uncut = await listAll(api, user);
    expect(uncut.map((entry) => entry.repeat.count)).toEqual([6, 6, 6, 6, 6, 6]);
    await put(entries[0].id, { ...weekly(), modified: uncut[0].modified }, '?delete_after_count=2').expect(
      200,
    );
    const after = await listAll(api, user);
    expect(after.map((entry) => entry.date)).toEqual(['2025-01-06', '2025-01-13']);
    expect(after[0].repeat.count).toBe(2);
    await put(
      after[0].id,
      { ...weekly(), modified: after[0].modified },
      '?delete_after_date=2025-01-06',
    ).expect(200);
    expect(await listAll(api, user)).toHaveLength(1);
  });

  it('when the date changes with update=all, or the rule with update=one, or update is unknown, then 400 names it', async () => {
    const entries = await postSeries();
    const dated = await patch(entries[1].id, { date: '2025-01-15', modified: entries[1].modified }).expect(
      400,
    );
    expect(dated.body.fields[0].field).toBe('date');
    const ruled = await patch(
      entries[1].id,
      { repeat: { interval: 3 }, modified: entries[1].modified },
      '?update=one',
    ).expect(400);
    expect(ruled.body.fields[0].field).toBe('repeat');
    const scope = await patch(
      entries[1].id,
      { amount: -1, modified: entries[1].modified },
      '?update=some',
    ).expect(400);
    expect(scope.body.fields[0].field).toBe('update');
    const count = await patch(
      entries[1].id,
      { modified: entries[1].modified },
      '?delete_after_count=x',
    ).expect(400);
    expect(count.body.fields[0].field).toBe('delete_after_count');
    expect((await listAll(api, user)).map((entry) => entry.amount)).toEqual([-10, -10, -10, -10, -10, -10]);
  });

  it('when a stale modified conflicts on the same field, then 409 and nothing changes', async () => {
    const entries = await postSeries();
    await patch(entries[0].id, { amount: -12, modified: entries[0].modified }, '?update=one').expect(200);
    await patch(entries[0].id, { amount: -13, modified: entries[0].modified }).expect(409);
    expect((await listAll(api, user)).map((entry) => entry.amount)).toEqual([-12, -10, -10, -10, -10, -10]);
  });

  it('when a series is patched with a partial repeat, then the rest of the rule is kept', async () => {
    const entries = await postSeries();
    await patch(entries[0].id, { repeat: { count: 4 }, modified: entries[0].modified }).expect(200);
    const after = await listAll(api, user);
    expect(after.map((entry) => entry.date)).toEqual([
      '2025-01-06',
      '2025-01-13',
      '2025-01-20',
      '2025-01-27',
    ]);
  });
});

describe('sync', () => {
  it('when a split or a cut changes the rule shown on untouched occurrences, then a since-sync fetches them again', async () => {
    const entries = await postSeries();
    const list = await request(api.app).get('/entries').set('Authorization', user.auth).expect(200);
    const since = encodeURIComponent(String(list.headers['service-modified']));
    await patch(entries[3].id, { amount: -20, modified: entries[3].modified }, '?update=tail').expect(200);
    const changed = await request(api.app)
      .get(`/entries?since=${since}`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(changed.body.map((entry: { id: string }) => entry.id).sort()).toEqual(
      entries.map((entry) => entry.id).sort(),
    );
    const head = changed.body.find((entry: { id: string }) => entry.id === entries[0].id);
    expect(head.repeat).toMatchObject({ end: '2025-01-26' });
    // The new modified names a revision: a later edit based on it merges, no 409.
    await patch(entries[0].id, { desc: 'first', modified: head.modified }, '?update=one').expect(200);
  });
});

describe('DELETE ?delete=all|one|tail', () => {
  it('when one occurrence is deleted alone, then it stays deleted after the materializer runs', async () => {
    const entries = await postSeries();
    await del(entries[2].id, '?delete=one').expect(204);
    await materializeDueRepeats(ledgerDepsOf(api.deps), '2030-01-01', { onlyUsers: [user.userId] });
    const after = await listAll(api, user);
    expect(after.map((entry) => entry.repeat.iteration)).toEqual([0, 1, 3, 4, 5]);
    expect(await balanceOf(api.app, user, user.account)).toBe(-50);
    const deleted = await listAll(api, user, '&include_deleted=true');
    expect(deleted.find((entry) => entry.id === entries[2].id)).toMatchObject({ deleted: true });
  });

  it('when the tail from occurrence 4 is deleted, then 0–3 remain and the series ends the day before', async () => {
    const entries = await postSeries();
    await del(entries[4].id, '?delete=tail').expect(204);
    const after = await listAll(api, user);
    expect(after.map((entry) => entry.repeat.iteration)).toEqual([0, 1, 2, 3]);
    expect(after[0].repeat).toMatchObject({ end: '2025-02-02' });
    expect(await balanceOf(api.app, user, user.account)).toBe(-40);
  });

  it('when an occurrence is deleted with the default (all), then every occurrence goes and the balance is back to 0', async () => {
    const entries = await postSeries();
    await del(entries[3].id).expect(204);
    expect(await listAll(api, user)).toEqual([]);
    expect(await balanceOf(api.app, user, user.account)).toBe(0);
    await materializeDueRepeats(ledgerDepsOf(api.deps), '2030-01-01', { onlyUsers: [user.userId] });
    expect(await listAll(api, user)).toEqual([]);
    await del(entries[3].id, '?delete=bogus').expect(400);
  });
});

describe('repeating transfers', () => {
  it('when a transfer repeats, then every occurrence is a pair and both balances stay exact through edits and deletes', async () => {
    await postSeries({ amount: -100.1, transaction: { account: user.savings } });
    const all = await listAll(api, user, '&include_deleted=false');
    expect(all).toHaveLength(12);
    expect(await balanceOf(api.app, user, user.account)).toBeCloseTo(-600.6, 9);
    expect(await balanceOf(api.app, user, user.savings)).toBeCloseTo(600.6, 9);
    const first = all.find((entry) => entry.repeat?.iteration === 0 && entry.account === user.account)!;
    await patch(first.id, { amount: -50, modified: first.modified }).expect(200);
    expect(await balanceOf(api.app, user, user.account)).toBe(-300);
    expect(await balanceOf(api.app, user, user.savings)).toBe(300);
    const third = (await listAll(api, user)).find((entry) => entry.repeat?.iteration === 3)!;
    await del(third.id, '?delete=tail').expect(204);
    expect(await balanceOf(api.app, user, user.account)).toBe(-150);
    expect(await balanceOf(api.app, user, user.savings)).toBe(150);
    expect(await listAll(api, user)).toHaveLength(6);
  });
});

describe('isolation', () => {
  it('when another user reads, edits or deletes an occurrence or filters by the series, then 404 or nothing', async () => {
    const entries = await postSeries();
    const other = await createTestUser(api.deps);
    await request(api.app).get(`/entries/${entries[0].id}`).set('Authorization', other.auth).expect(404);
    await request(api.app)
      .patch(`/entries/${entries[0].id}?update=all`)
      .set('Authorization', other.auth)
      .send({ amount: -1, modified: entries[0].modified })
      .expect(404);
    await request(api.app)
      .delete(`/entries/${entries[0].id}?delete=all`)
      .set('Authorization', other.auth)
      .expect(404);
    const filtered = await request(api.app)
      .get(`/entries?repeat=${entries[0].repeat.id}`)
      .set('Authorization', other.auth)
      .expect(200);
    expect(filtered.body).toEqual([]);
    expect(await listAll(api, user)).toHaveLength(6);
  });
});
