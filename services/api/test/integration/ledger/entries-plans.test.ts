import {
  buildEntryFilters,
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
