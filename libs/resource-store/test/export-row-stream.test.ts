import { createDataSource } from '@pfs/resource-store';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { streamRows } from '../src/export-rows/row-cursor';

/**
 * Far below the time the slow consumer below takes, server-side (1 s) and client-side (+1 s) alike, yet far
 * above one FETCH of 500 rows even on a loaded machine (at 300 ms one FETCH once ran out of it in CI).
 */
const STATEMENT_TIMEOUT_MS = 1_000;
const ROWS = 6_000;

let source: DataSource;

beforeAll(async () => {
  source = createDataSource({
    url: process.env.DATABASE_URL!,
    poolSize: 1,
    timeouts: { statementTimeoutMs: STATEMENT_TIMEOUT_MS, connectTimeoutMs: 5_000 },
  });
  await source.initialize();
});
afterAll(() => source.destroy());

const series = 'SELECT n, (n * 0.01)::numeric(12,2)::text AS amount FROM generate_series(1, $1::int) AS n';

describe('streaming export rows under a statement timeout', () => {
  it('when the consumer takes longer in total than the statement timeout, then every row still arrives in order', async () => {
    const started = Date.now();
    let count = 0;
    for await (const row of streamRows<{ n: number; amount: string }>(source, series, [ROWS])) {
      count += 1;
      expect(row.n).toBe(count);
      if (count % 500 === 0) await sleep(250);
    }
    expect(count).toBe(ROWS);
    // 12 pauses of 250 ms: longer than the server's timeout and the client's (timeout + 1 s).
    expect(Date.now() - started).toBeGreaterThan(STATEMENT_TIMEOUT_MS + 1_000);
  });

  it('when one fetch is stuck longer than the statement timeout, then the stream fails with the timeout', async () => {
    const stuck =
      'SELECT n, pg_sleep(CASE WHEN n = $1::int THEN 3 ELSE 0 END) FROM generate_series(1, $1::int) n';
    const read = async () => {
      for await (const row of streamRows(source, stuck, [3])) void row;
    };
    await expect(read()).rejects.toMatchObject({ code: '57014' });
    // The pool (one connection) still serves the next query.
    await expect(source.query('SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
  });

  it('when the consumer stops early, then the transaction ends and the connection is free again', async () => {
    for await (const row of streamRows<{ n: number }>(source, series, [ROWS])) {
      if (row.n === 10) break;
    }
    // poolSize 1: these run on the connection the stream used, so it was released, out of its transaction.
    await expect(source.query('SHOW transaction_read_only')).resolves.toEqual([
      { transaction_read_only: 'off' },
    ]);
    await expect(source.query('SELECT count(*)::int AS open FROM pg_cursors')).resolves.toEqual([
      { open: 0 },
    ]);
  });
});
