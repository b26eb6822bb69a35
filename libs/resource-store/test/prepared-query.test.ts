import { createDataSource, preparedQuery, preparedStatementsWanted } from '@pfs/resource-store';
import type { DataSource } from 'typeorm';

// One connection per pool, so every statement of a pool runs on the session whose prepared statements it lists.
let preparing: DataSource;
let plain: DataSource;

beforeAll(async () => {
  preparing = createDataSource({ url: process.env.DATABASE_URL!, poolSize: 1, preparedStatements: true });
  plain = createDataSource({ url: process.env.DATABASE_URL!, poolSize: 1 });
  await Promise.all([preparing.initialize(), plain.initialize()]);
});
afterAll(() => Promise.all([preparing.destroy(), plain.destroy()]));

const SQL = `SELECT $1::int + n AS sum FROM generate_series(1, 3) n ORDER BY n -- prepared-query.test`;

async function preparedOnSession(source: DataSource): Promise<string[]> {
  const rows: Array<{ statement: string }> = await source.query(
    `SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%prepared-query.test%' AND statement NOT LIKE '%pg_prepared_statements%'`,
  );
  return rows.map((row) => row.statement);
}

describe('preparedQuery', () => {
  it('when the data source allows it, then the statement is prepared once on the session and gives the same rows every time', async () => {
    const first = await preparedQuery<{ sum: number }>(preparing, SQL, [10]);
    const second = await preparedQuery<{ sum: number }>(preparing, SQL, [20]);
    expect(first.map((row) => row.sum)).toEqual([11, 12, 13]);
    expect(second.map((row) => row.sum)).toEqual([21, 22, 23]);
    expect(await preparedOnSession(preparing)).toEqual([SQL]);
  });

  it('when the data source does not allow it (a transaction pooler), then nothing is prepared and the rows are the same', async () => {
    const rows = await preparedQuery<{ sum: number }>(plain, SQL, [10]);
    expect(rows.map((row) => row.sum)).toEqual([11, 12, 13]);
    expect(await preparedOnSession(plain)).toEqual([]);
  });

  it('when called inside a transaction, then it runs on that transaction and sees its uncommitted writes', async () => {
    const seen = await preparing.transaction(async (manager) => {
      await manager.query(`CREATE TEMP TABLE prepared_probe (n int) ON COMMIT DROP`);
      await manager.query(`INSERT INTO prepared_probe VALUES (7)`);
      return preparedQuery<{ n: number }>(manager, `SELECT n FROM prepared_probe WHERE n = $1`, [7]);
    });
    expect(seen).toEqual([{ n: 7 }]);
  });

  it('when a statement fails, then the error reaches the caller with its Postgres code and the session stays usable', async () => {
    await expect(
      preparedQuery(preparing, `SELECT 1 / $1::int AS x -- prepared-query.test`, [0]),
    ).rejects.toMatchObject({
      code: '22012',
    });
    expect(await preparedQuery(preparing, SQL, [0])).toEqual([{ sum: 1 }, { sum: 2 }, { sum: 3 }]);
  });
});

describe('preparedStatementsWanted', () => {
  it.each([
    ['auto', undefined, true],
    ['auto', 'postgres://postgres@127.0.0.1:5432/pfs', false],
    ['on', 'postgres://postgres@127.0.0.1:5432/pfs', true],
    ['off', undefined, false],
  ])('DATABASE_PREPARED_STATEMENTS=%s with DATABASE_DIRECT_URL=%s: %s', (setting, directUrl, wanted) => {
    expect(
      preparedStatementsWanted({ DATABASE_PREPARED_STATEMENTS: setting, DATABASE_DIRECT_URL: directUrl }),
    ).toBe(wanted);
  });
});
