import { entryPresentedLineBackfillSql, type UserRead } from '@pfs/resource-store';
import { Client } from 'pg';
import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTag,
  createTestUser,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';
import { entryPresenterFor } from '../../../src/modules/entries/entry-presenter-for';
import { presentedPageBody } from '../../../src/modules/entries/presented-page-body';
import { postAccount, postEntry } from './ledger-http';
import { bothWays, page } from './presented-page-both-ways';

/**
 * Each entry's presented line (`entries.presented_line`, kept by a trigger: migration
 * 1764700000000-store-entry-presented-lines.ts) must stay the general presenter's bytes whichever path wrote
 * the row last: a single write, a patch, a bulk move, a category's deletion, an account merge, a deletion, and
 * a change of the user's main currency (with and without moving the accounts), which decides which stored lines
 * the page may use.
 */
let api: ApiTestApp;
let user: TestUser;
let ids: Record<string, string>;
let accounts: Record<string, string>;
beforeAll(async () => {
  api = await startApiTestApp();
  user = await createTestUser(api.deps);
  accounts = {
    cash: await postAccount(api.app, user, { name: 'Cash', currency: { code: 'EUR' } }),
    wallet: await postAccount(api.app, user, { name: 'Wallet', currency: { code: 'EUR' } }),
    dollars: await postAccount(api.app, user, { name: 'Dollars', currency: { code: 'USD' } }),
  };
  const food = await createCategory(api.app, user, { name: 'Food', type: 'expense' });
  const tag = await createTag(api.app, user, { name: 'a', type: 'expense' });
  const entry = (body: Record<string, unknown>) =>
    postEntry(api.app, user, {
      amount: -12.5,
      currency: { code: 'EUR' },
      date: '2025-05-09',
      account: accounts.cash,
      category: food,
      ...body,
    });
  ids = {
    plain: await entry({ desc: 'lunch "quoted"' }),
    tagged: await entry({ tags: [tag] }),
    inWallet: await entry({ account: accounts.wallet, amount: 3.75 }),
    dollars: await entry({ amount: 7.25, currency: { code: 'USD' }, account: accounts.dollars }),
    dollarsFromCash: await entry({ amount: -4, currency: { code: 'USD' }, rate: 0.9 }),
    gone: await entry({ desc: 'to delete' }),
  };
  ids.food = food;
  ids.tag = tag;
});
afterAll(() => api.close());

const read = (): UserRead => api.deps.store.read({ userId: user.userId });
const send = (method: 'patch' | 'delete' | 'put' | 'post', path: string) =>
  request(api.app)[method](path).set('Authorization', user.auth);

/** Both pages (live, and with the deleted) are the general presenter's; answers the ids Postgres wrote. */
async function expectSameBytes(): Promise<Set<string>> {
  const live = await bothWays(api, read(), page());
  expect(live.body).toBe(live.expected);
  const all = await bothWays(api, read(), page({ includeDeleted: true }));
  expect(all.body).toBe(all.expected);
  return all.written;
}

async function putMainCurrency(currency: Record<string, unknown>) {
  const me = (await request(api.app).get('/me').set('Authorization', user.auth).expect(200)).body;
  await send('put', '/me')
    .send({ ...me, currency })
    .expect(200);
}

describe('GET /entries: the stored presented lines after every kind of write', () => {
  it('when rows are written by single, bulk and merging paths and the main currency changes, then pages stay the same bytes', async () => {
    let written = await expectSameBytes();
    expect([...written].sort()).toEqual([ids.plain, ids.tagged, ids.inWallet, ids.gone].sort());

    const before = (await request(api.app).get(`/entries/${ids.plain}`).set('Authorization', user.auth)).body;
    await send('patch', `/entries/${ids.plain}`)
      .send({ modified: before.modified, amount: -99.125, desc: 'dinner' })
      .expect(200);
    await send('post', '/entries/manage')
      .send({ with: { accounts: [accounts.cash] }, add: { tags: [ids.tag] } })
      .expect(204);
    await send('delete', `/categories/${ids.food}`).expect(204);
    await send('post', '/accounts/merge')
      .send({ accounts: [accounts.wallet], account: accounts.cash })
      .expect(204);
    await send('delete', `/entries/${ids.gone}`).expect(204);
    written = await expectSameBytes();
    expect(written.has(ids.plain)).toBe(true);
    expect(written.has(ids.inWallet)).toBe(true);
    expect(written.has(ids.gone)).toBe(true);

    // USD main: the USD entries' stored lines are used, the EUR ones are presented with their main rate.
    await putMainCurrency({ main: 'USD' });
    written = await expectSameBytes();
    expect(written.has(ids.dollars)).toBe(true);
    expect(written.has(ids.plain)).toBe(false);

    // Back to EUR, moving the accounts in USD (their entries relabelled by one bulk UPDATE).
    await putMainCurrency({ main: 'EUR', update: 'historical', update_accounts: true });
    written = await expectSameBytes();
    expect(written.has(ids.plain)).toBe(true);
  });
});

/**
 * The sessions that may write entries besides the API's (psql, the CLI, a pooler's connection left with other
 * settings): each setting the line's SQL could read, set as far from the API's as it goes.
 */
const OTHER_SESSIONS = [
  `SET TimeZone = 'America/New_York'; SET DateStyle = 'SQL, DMY'; SET IntervalStyle = 'postgres_verbose'`,
  `SET TimeZone = '+05:30'; SET DateStyle = 'German'; SET extra_float_digits = -15; SET lc_numeric = 'C'`,
];

describe('GET /entries: the stored lines written from sessions with other settings', () => {
  it('when entries are written under another TimeZone, DateStyle and number settings, then their lines and pages are the API session’s', async () => {
    const longDesc = 'é😀\u2028"'.repeat(700); // a line of over 4 KB: stored compressed or out of line
    const category = await createCategory(api.app, user, { name: 'Rent', type: 'expense' });
    const rows = [
      await postEntry(api.app, user, {
        amount: 1,
        currency: { code: 'EUR' },
        date: '2025-12-31',
        account: accounts.cash,
        category,
      }),
      await postEntry(api.app, user, {
        amount: 2,
        currency: { code: 'EUR' },
        date: '2025-01-01',
        account: accounts.cash,
        category,
      }),
    ];
    for (const [index, settings] of OTHER_SESSIONS.entries()) {
      const other = new Client({ connectionString: process.env.DATABASE_URL });
      await other.connect();
      try {
        await other.query(settings);
        // Near a UTC midnight (the day differs in both zones), with a millisecond the ISO form writes as `.5`.
        await other.query(
          `UPDATE entries SET created_at = '2025-05-09 23:30:00.999999+00', modified_at = '2025-05-09 23:59:59.5+00',
             amount = '-0.000000000', description = $2, tag_ids = ARRAY[$3, $3]::bigint[]
           WHERE id = $1`,
          [rows[index], index === 0 ? longDesc : 'x', ids.tag],
        );
      } finally {
        await other.end();
      }
    }
    const stored: Array<{ same: boolean; line: string | null }> = await api.deps.dataSource.query(
      `SELECT e.presented_line AS line, e.presented_line IS NOT DISTINCT FROM (${entryPresentedLineBackfillSql('e.')}) AS same
       FROM entries e WHERE e.id = ANY($1::bigint[])`,
      [rows],
    );
    expect(stored.map((row) => [row.line !== null, row.same])).toEqual([
      [true, true],
      [true, true],
    ]);
    const written = await expectSameBytes();
    expect(rows.every((id) => written.has(id))).toBe(true);
  });
});

describe('GET /entries: the stored lines and a main currency the caller read before the page', () => {
  it('when the main currency changes between the caller’s read of it and the page, then the page is presented in the one it read', async () => {
    // What the route does with a stored page under an older version: the list state first, then the page.
    const known = (await api.deps.store.listState(user.userId)).settings;
    expect(known.main).toBe('EUR');
    await putMainCurrency({ main: 'USD' });
    try {
      const table = api.deps.repos.entries.table;
      const presenterFor = entryPresenterFor(api.deps);
      const general = await table.list(read(), page());
      const present = await presenterFor(read(), general.items, known);
      const presented = await table.listPresented(read(), page({ presentedMain: known.main }));
      const body = await presentedPageBody(presenterFor, read(), presented, known);
      expect(body.toString()).toBe(JSON.stringify(general.items.map(present)));
      expect(presented.items.filter((item) => typeof item === 'string').length).toBeGreaterThan(0);
    } finally {
      await putMainCurrency({ main: 'EUR' });
    }
  });
});
