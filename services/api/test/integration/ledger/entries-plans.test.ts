import {
  buildEntryFilters,
  createDataSource,
  type EntryFilters,
  entriesTable,
  type PageRequest,
  UserStore,
} from '@pfs/resource-store';
import type { DataSource } from 'typeorm';
import {
  createLedgerUser,
  insertCategory,
  openLedger,
  type LedgerFixture,
} from '../../support/ledger-fixture';
import { createAccount } from '../../support/ledger-calls';

const SEEDED = 60_000;
let deps: LedgerFixture;
let userId: string;
let category: string;

/** Runs the list exactly as the API does, but EXPLAINs its SQL instead of executing it. */
async function planOf(source: DataSource, request: PageRequest, filters: EntryFilters): Promise<string> {
  let captured: [string, unknown[]] | undefined;
  const recorder = {
    query: async (sql: string, params: unknown[]) => {
      captured ??= [sql, params];
      return [{ watermark: '0', total: 0, id: null }];
    },
  };
  const read = new UserStore(recorder as unknown as DataSource).read(userId);
  await entriesTable.list(read, request, buildEntryFilters(filters));
  const rows: Array<{ 'QUERY PLAN': string }> = await source.query(`EXPLAIN ${captured![0]}`, captured![1]);
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

beforeAll(async () => {
  deps = await openLedger();
  userId = await createLedgerUser(deps);
  const other = await createLedgerUser(deps);
  category = await insertCategory(deps, userId);
  const account = await createAccount(deps, userId, { name: 'A', currency: { code: 'EUR' } });
  const otherAccount = await createAccount(deps, other, { name: 'B', currency: { code: 'EUR' } });
  // Many entries for one user and some for another, so the planner sees a realistic skew.
  for (const [owner, accountId, count] of [
    [userId, account.id, SEEDED],
    [other, otherAccount.id, 5_000],
  ] as const) {
    await deps.dataSource.query(
      `INSERT INTO entries (user_id, account_id, category_id, amount, currency, rate, account_amount, date, modified_at, change_seq)
       SELECT $1, $2, CASE WHEN g % 12 = 0 THEN $4::bigint END, -1, 'EUR', 1, -1, DATE '2016-01-01' + (g % 3650)::int, now(), g
       FROM generate_series(1, $3::int) g`,
      [owner, accountId, count, category],
    );
  }
  await deps.dataSource.query('ANALYZE entries');
}, 120_000);
afterAll(() => deps.close());

const page: PageRequest = { perPage: 200, offset: 0, includeDeleted: false };

describe('GET /entries query plans at scale', () => {
  it('when a page of the newest entries is listed (total from the kept counts), then it walks the sync index', async () => {
    const plan = await planOf(
      deps.dataSource,
      { ...page, totalCache: { get: async () => 0, set: async () => {} } },
      {},
    );
    expect(plan).toMatch(/Index Scan Backward using entries_user_sync_idx/);
    expect(plan).not.toMatch(/Seq Scan on entries/);
  });

  it('when a month of one category is listed, then the category/date index serves it', async () => {
    const plan = await planOf(deps.dataSource, page, {
      from: '2020-03-01',
      to: '2020-03-31',
      categories: [{ ids: [category], negate: false }],
    });
    expect(plan).toMatch(/entries_user_category_date_idx/);
    expect(plan).not.toMatch(/Seq Scan on entries/);
  });

  it('when syncing since a recent watermark, then only the changes are read, from the sync index', async () => {
    const plan = await planOf(deps.dataSource, { ...page, sinceSeq: String(SEEDED - 100) }, {});
    expect(plan).toMatch(/entries_user_sync_idx/);
    expect(plan).not.toMatch(/Seq Scan on entries/);
  });
});

/** How pg_prepared_statements finds the presented page's statement (its aggregate of the page's lines). */
const PAGE_STATEMENT = `statement LIKE '%string_agg(p.__line%'`;

/** The page statements' plans as the session that prepared them counts them (pg_prepared_statements). */
async function pagePlansOn(session: DataSource): Promise<Array<{ generic: number; custom: number }>> {
  const rows: Array<{ generic: number; custom: number }> = await session.query(
    `SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements
     WHERE ${PAGE_STATEMENT} ORDER BY prepare_time`,
  );
  return rows;
}

describe('GET /entries page statements as prepared on one session', () => {
  // One connection to Postgres itself, preparing as the API does when no transaction pooler is between them, so
  // its pg_prepared_statements are the statements' own (the PgBouncer run of this file sets DATABASE_DIRECT_URL).
  let session: DataSource;
  beforeEach(async () => {
    session = createDataSource({
      url: process.env.DATABASE_DIRECT_URL ?? process.env.DATABASE_URL!,
      poolSize: 1,
      preparedStatements: true,
    });
    await session.initialize();
  });
  afterEach(() => session.destroy());

  // The total from a cache, as GET /entries takes it from the kept counts: the statement is the page's alone.
  const totalCache = { get: async () => SEEDED, set: async () => {} };
  const listTimes = async (times: number, request: PageRequest) => {
    const read = new UserStore(session).read(userId);
    const pages = [];
    for (let time = 0; time < times; time += 1)
      pages.push(await entriesTable.listPresented(read, { ...request, totalCache }, []));
    return pages;
  };

  it.each([
    ['the newest page', page],
    ['a page of 20', { ...page, perPage: 20 }],
    ['a page of 50 (its rows at the middle bound)', { ...page, perPage: 50 }],
    ['a page of 2', { ...page, perPage: 2 }],
    ['the page after a cursor', { ...page, after: { changeSeq: String(SEEDED - 500), id: '0' } }],
  ])(
    'when %s is read again and again, then Postgres keeps a generic plan instead of planning every read, and the pages are the same',
    async (_, request) => {
      const pages = await listTimes(8, request);
      // Postgres makes five custom plans, then keeps the generic one when it costs no more than they did.
      expect(await pagePlansOn(session)).toEqual([{ generic: 3, custom: 5 }]);
      const bodies = pages.map((read) => read.json?.toString());
      expect(bodies[0]).toBeDefined();
      expect(new Set(bodies).size).toBe(1);
      expect(JSON.parse(bodies[0]!)).toHaveLength(request.perPage);
      expect(pages.every((read) => read.hasMore)).toBe(true);
    },
  );

  it('when the generic plan of the newest page is explained, then it walks the sync index and reads only the page', async () => {
    await listTimes(6, page);
    const [{ name }]: Array<{ name: string }> = await session.query(
      `SELECT name FROM pg_prepared_statements WHERE ${PAGE_STATEMENT}`,
    );
    const rows: Array<{ 'QUERY PLAN': string }> = await session.query(
      `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) EXECUTE ${name}(${userId}, ${userId}, 201)`,
    );
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Index Scan Backward using entries_user_sync_idx on entries t \(actual rows=201 /);
    expect(plan).not.toMatch(/Seq Scan on entries|Sort/);
  });
});
