import { createDataSource, resourceEntities } from '@pfs/resource-store';
import { buffer } from 'node:stream/consumers';
import { runExport } from '../../src/use-cases/run-export.use-case';
import { LedgerSeed } from '../support/seed-ledger';
import { createTestPipeline, TestPipeline } from '../support/pipeline-deps';
import { parseXlsx } from '../support/read-export-file';
import type { DataSource } from 'typeorm';

/** Far below the time a workbook of these rows takes to build (seconds): ten batches of rows. */
const STATEMENT_TIMEOUT_MS = 200;
const ENTRIES = 20_000;

let pipeline: TestPipeline;
/** Seeds without the short timeout: inserting the rows takes longer than it. */
let seedSource: DataSource;
beforeAll(async () => {
  seedSource = createDataSource({ url: process.env.DATABASE_URL!, poolSize: 1, entities: resourceEntities });
  await seedSource.initialize();
  pipeline = await createTestPipeline({
    timeouts: { statementTimeoutMs: STATEMENT_TIMEOUT_MS, connectTimeoutMs: 5_000 },
  });
});
afterAll(async () => {
  await pipeline.close();
  await seedSource.destroy();
});

describe('a long export under a short statement timeout', () => {
  it('when building the workbook takes longer than the statement timeout, then the export is still sent, whole', async () => {
    const seed = await LedgerSeed.forNewUser(seedSource);
    const account = await seed.account('Wallet');
    const first = await seed.entry({ account, amount: '-1.25', date: '2026-03-01', description: 'bread' });
    await seedSource.query(
      `INSERT INTO entries (user_id, change_seq, modified_at, account_id, amount, currency, rate, account_amount,
                            date, description, tag_ids, image_ids)
       SELECT user_id, change_seq, modified_at, account_id, amount, currency, rate, account_amount,
              date + (n % 300), description, tag_ids, image_ids
       FROM entries, generate_series(2, $2::int) AS n WHERE id = $1`,
      [first, ENTRIES],
    );
    const created = await pipeline.deps.repos.store.change(seed.userId, (change) =>
      pipeline.deps.repos.exports.create(change, {
        type: 'export',
        resources: ['expenses'],
        formats: ['xlsx'],
        filters: null,
        from: null,
        to: null,
      }),
    );
    const started = Date.now();
    const done = (await runExport(pipeline.deps, seed.userId, created.id))!;
    expect(done.status).toBe('sent');
    expect(Date.now() - started).toBeGreaterThan(STATEMENT_TIMEOUT_MS);
    const sheets = await parseXlsx(await buffer((await pipeline.deps.storage.read(done.storageKey!)).body));
    const rows = Object.values(sheets)[0];
    expect(rows.filter((row) => row.includes('bread'))).toHaveLength(ENTRIES);
  });
});
