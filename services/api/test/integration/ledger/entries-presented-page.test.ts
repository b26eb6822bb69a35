import {
  buildEntryFilters,
  entryPresentedLineBackfillSql,
  type PageRequest,
  type SqlFilter,
  type UserRead,
} from '@pfs/resource-store';
import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTag,
  createTestUser,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';
import { postAccount, postEntry } from './ledger-http';
import { bothWays as bothWaysOf, page } from './presented-page-both-ways';

/**
 * A page of entries whose representations Postgres keeps (entry-presented-line.ts) must be the bytes the
 * general presenter gives (`presentEntry`, then JSON.stringify): the OpenAPI document promises one
 * representation. Each page here is read both ways, over entries of every field shape, including values made
 * to sit on either side of each guard of the SQL (digits of amounts and rates, tiny amounts, old and
 * far timestamps, escapes in descriptions).
 */
let api: ApiTestApp;
let user: TestUser;
const ids: Record<string, string> = {};
beforeAll(async () => {
  api = await startApiTestApp();
  user = await createTestUser(api.deps);
  const eur = await postAccount(api.app, user, { name: 'Cash', currency: { code: 'EUR' } });
  const usd = await postAccount(api.app, user, { name: 'Dollars', currency: { code: 'USD' } });
  const food = await createCategory(api.app, user, { name: 'Food', type: 'expense' });
  const tags = [
    await createTag(api.app, user, { name: 'a', type: 'expense' }),
    await createTag(api.app, user, { name: 'b', type: 'expense' }),
  ];
  const entry = (body: Record<string, unknown>) =>
    postEntry(api.app, user, {
      amount: -12.5,
      currency: { code: 'EUR' },
      date: '2025-05-09',
      account: eur,
      category: food,
      ...body,
    });
  ids.plain = await entry({ desc: 'lunch' });
  ids.noCategory = await entry({ desc: '' });
  ids.tags = await entry({ tags });
  ids.location = await entry({ location: { latitude: 52.5, longitude: 13.4 } });
  ids.reminders = await entry({ reminders: [{ period: 'day', number: 1, at: '09:00:00' }] });
  ids.extra = await entry({ extra: { note: 1.5, list: [1, 'two'] } });
  ids.transfer = await entry({ amount: -100, transaction: { account: usd } });
  ids.dollars = await entry({ amount: 7.25, currency: { code: 'USD' }, account: usd });
  ids.completed = await entry({ completed: true, amount: 0 });
  ids.series = await entry({
    date: '2025-01-31',
    repeat: { start: '2025-01-31', frequency: 'monthly', interval: 1, count: 2 },
  });
  for (const name of [
    'escapes',
    'bigAmount',
    'sixDigits',
    'tinyAmount',
    'smallestPlain',
    'bigRate',
    'fineRate',
    'oldTimes',
    'farTimes',
    'evenTimes',
    'oldDay',
    'images',
    'deleted',
  ]) {
    ids[name] = await entry({ desc: name });
  }
  const set = (name: string, assignments: string, values: unknown[] = []) =>
    api.deps.dataSource.query(`UPDATE entries SET ${assignments} WHERE id = $1`, [ids[name], ...values]);
  const controls = Array.from({ length: 31 }, (_, code) => String.fromCharCode(code + 1)).join('');
  await set('noCategory', 'category_id = NULL');
  await set('escapes', 'description = $2', [
    `${controls} "quoted" back\\slash \u007f é 😀 \u2028 \u2029 </script>`,
  ]);
  await set('bigAmount', 'amount = 12345678901234567890.123456789, account_amount = 1000000');
  await set('sixDigits', 'amount = -999999.999999999, account_amount = 123456.123456789');
  await set('tinyAmount', 'amount = 0.0000001, rate = 0.000000000001');
  await set('smallestPlain', 'amount = -0.000001, rate = 999.999999999999');
  await set('bigRate', 'rate = 1000');
  await set('fineRate', 'rate = 0.123456789012');
  await set(
    'oldTimes',
    `created_at = '1960-01-01 00:00:00.9999+00', modified_at = '1969-12-31 23:59:59.999999+00'`,
  );
  await set(
    'farTimes',
    `created_at = '0999-12-31 23:59:59.5+00', modified_at = '9999-12-31 23:59:59.1239+00'`,
  );
  await set('evenTimes', `created_at = '2026-01-01 00:00:00+00', modified_at = '2026-01-01 00:00:00.01+00'`);
  await set('oldDay', `date = '0099-01-01'`);
  await set('images', 'image_ids = ARRAY[$2]::bigint[]', [ids.plain]);
  await set('deleted', 'deleted = true');
});
afterAll(() => api.close());

const read = (app?: string): UserRead => api.deps.store.read({ userId: user.userId, app });
const table = () => api.deps.repos.entries.table;

const bothWays = (reader: UserRead, request: PageRequest, filters: SqlFilter[] = []) =>
  bothWaysOf(api, reader, request, filters);

/** The presented page's has-more, cursor position and newest modification are the general page's. */
function expectSamePosition(
  presented: Awaited<ReturnType<typeof bothWays>>['presented'],
  general: Awaited<ReturnType<typeof bothWays>>['general'],
): void {
  expect(presented.hasMore).toBe(general.hasMore);
  const last = general.items[general.items.length - 1];
  expect(presented.last).toEqual(general.hasMore ? { changeSeq: last.changeSeq, id: last.id } : undefined);
  expect(presented.newest).toEqual(
    new Date(Math.max(...general.items.map((item) => item.modifiedAt.getTime()))),
  );
}

describe('GET /entries: the representations Postgres writes', () => {
  it('when a page holds every field shape, then its body is the general presenter’s, byte for byte', async () => {
    for (const reader of [read(), read('test-client'), read('another-app')]) {
      for (const request of [page(), page({ includeDeleted: true })]) {
        const { general, presented, expected, body } = await bothWays(reader, request);
        expect(body).toBe(expected);
        expect(presented.hasMore).toBe(general.hasMore);
        expect(presented.total).toBe(general.total);
        expect(presented.watermark).toBe(general.watermark);
        expect(presented.lastChange).toEqual(general.lastChange);
      }
    }
  });

  it('when an entry is plain, then Postgres wrote it; otherwise its record is presented here', async () => {
    const { written } = await bothWays(read(), page({ includeDeleted: true }));
    for (const name of [
      'plain',
      'noCategory',
      'tags',
      'completed',
      'escapes',
      'sixDigits',
      'smallestPlain',
    ]) {
      expect([name, written.has(ids[name])]).toEqual([name, true]);
    }
    for (const name of ['fineRate', 'evenTimes', 'oldTimes', 'oldDay', 'deleted']) {
      expect([name, written.has(ids[name])]).toEqual([name, true]);
    }
    for (const name of [
      'location',
      'reminders',
      'extra',
      'transfer',
      'dollars',
      'bigAmount',
      'tinyAmount',
      'bigRate',
      'farTimes',
      'images',
      'series',
    ]) {
      expect([name, written.has(ids[name])]).toEqual([name, false]);
    }
  });

  it('when the migration backfills an entry written before it, then it writes the line the trigger keeps', async () => {
    const rows: Array<{ id: string; line: string | null; same: boolean }> = await api.deps.dataSource.query(
      `SELECT e.id::text AS id, e.presented_line AS line,
              e.presented_line IS NOT DISTINCT FROM (${entryPresentedLineBackfillSql('e.')}) AS same
       FROM entries e WHERE e.user_id = $1`,
      [user.userId],
    );
    expect(rows.length).toBeGreaterThanOrEqual(Object.keys(ids).length);
    expect(rows.filter((row) => !row.same)).toEqual([]);
    expect(rows.filter((row) => row.line !== null).length).toBeGreaterThan(5);
  });

  it('when pages are read by offset, by cursor, since a change or filtered, then each is the general one', async () => {
    let after: PageRequest['after'];
    for (let index = 0; index < 12; index += 1) {
      const { general, presented, expected, body } = await bothWays(read(), page({ perPage: 2, after }));
      expect(body).toBe(expected);
      expectSamePosition(presented, general);
      if (!general.hasMore) break;
      after = presented.last;
    }
    const watermark = (await table().list(read(), page())).items[5].changeSeq;
    for (const request of [
      page({ perPage: 3, offset: 4 }),
      page({ sinceSeq: watermark, includeDeleted: true }),
      page({ perPage: 1 }),
    ]) {
      const { expected, body } = await bothWays(read(), request);
      expect(body).toBe(expected);
    }
    const filtered = await bothWays(
      read(),
      page(),
      buildEntryFilters({ type: 'expense', from: '2025-01-01' }),
    );
    expect(filtered.body).toBe(filtered.expected);
    const none = await bothWays(read(), page(), buildEntryFilters({ from: '2999-01-01' }));
    expect([none.body, none.presented.last, none.presented.newest]).toEqual(['[]', undefined, undefined]);
  });

  it('when Postgres wrote every entry of a page, then the page comes as bytes, the general presenter’s', async () => {
    const plain = ['plain', 'noCategory', 'tags', 'completed', 'escapes', 'sixDigits', 'smallestPlain'];
    const written = buildEntryFilters({
      ids: [...plain, 'fineRate', 'evenTimes', 'oldTimes', 'oldDay', 'deleted'].map((name) => ids[name]),
    });
    const pages = [
      page({ includeDeleted: true }),
      page(),
      page({ perPage: 4, offset: 3, includeDeleted: true }),
    ];
    let after: PageRequest['after'];
    for (let index = 0; index < 6; index += 1) {
      pages.push(page({ perPage: 3, after, includeDeleted: true }));
      const { presented } = await bothWays(read(), pages[pages.length - 1], written);
      if (!presented.hasMore) break;
      after = presented.last;
    }
    expect(pages.length).toBeGreaterThan(6);
    for (const request of pages) {
      const { general, presented, expected, body } = await bothWays(read(), request, written);
      expect(presented.json).toBeInstanceOf(Buffer);
      expect(presented.items).toEqual([]);
      expect(body).toBe(expected);
      expectSamePosition(presented, general);
    }
  });

  it('when a cold page is asked with the ETag of the same page, then 304; its Link cursor reads the next page', async () => {
    const get = (path: string) => request(api.app).get(path).set('Authorization', user.auth);
    const first = await get('/entries?per_page=10').expect(200);
    await get('/entries?per_page=10&_=1').set('If-None-Match', first.headers.etag).expect(304);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link)![1];
    const second = await get(next.slice(next.indexOf('/entries'))).expect(200);
    const all = (await get('/entries?per_page=20').expect(200)).body as unknown[];
    expect([...first.body, ...second.body]).toEqual(all);
  });
});
