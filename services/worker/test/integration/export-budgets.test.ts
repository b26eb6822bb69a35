import { budgetsTable, BudgetSnapshot, withUserChange } from '@pfs/resource-store';
import { buffer } from 'node:stream/consumers';
import { runExport } from '../../src/use-cases/run-export.use-case';
import { createTestPipeline, TestPipeline } from '../support/pipeline-deps';
import { parseCsv } from '../support/read-export-file';
import { LedgerSeed } from '../support/seed-ledger';

let pipeline: TestPipeline;
beforeAll(async () => {
  pipeline = await createTestPipeline();
});
afterAll(() => pipeline.close());

async function insertBudget(seed: LedgerSeed, snapshot: Partial<BudgetSnapshot>): Promise<string> {
  const full: BudgetSnapshot = {
    name: 'Food',
    type: 'regular',
    limit: '300.5',
    currency: { code: 'EUR', fixed: false },
    recurrence: { frequency: 'monthly', interval: 1, start: '2026-01-01' },
    rollover: false,
    order: 0,
    status: 'active',
    ...snapshot,
  };
  const created = await withUserChange(pipeline.dataSource, seed.userId, (change) =>
    budgetsTable.insert(change, full),
  );
  return created.id;
}

async function exportBudgets(seed: LedgerSeed, from: string, to: string): Promise<string[][]> {
  const created = await pipeline.deps.repos.store.change(seed.userId, (change) =>
    pipeline.deps.repos.exports.create(change, {
      type: 'export',
      resources: ['budgets'],
      formats: ['csv'],
      filters: null,
      from,
      to,
    }),
  );
  const done = (await runExport(pipeline.deps, seed.userId, created.id))!;
  expect(done.status).toBe('sent');
  return parseCsv((await buffer((await pipeline.deps.storage.read(done.storageKey!)).body)).toString());
}

describe('export: budgets sheet', () => {
  it('when budgets overlap the export period, then each is one row with its definition; others and deleted ones are left out', async () => {
    const seed = await LedgerSeed.forNewUser(pipeline.dataSource);
    const monthly = await insertBudget(seed, { order: 1 });
    const trip = await insertBudget(seed, {
      name: 'Trip',
      type: 'delta',
      limit: undefined,
      delta: '20',
      order: 0,
      recurrence: { frequency: 'one-time', interval: 1, start: '2026-02-01', end: '2026-02-10' },
    });
    await insertBudget(seed, {
      name: 'Later',
      recurrence: { frequency: 'monthly', interval: 1, start: '2027-01-01' },
    });
    const gone = await insertBudget(seed, { name: 'Gone' });
    await withUserChange(pipeline.dataSource, seed.userId, (change) =>
      budgetsTable.softDelete(change, [gone]),
    );
    const other = await LedgerSeed.forNewUser(pipeline.dataSource);
    await insertBudget(other, { name: 'Not mine' });
    const rows = await exportBudgets(seed, '2026-02-01', '2026-02-28');
    expect(rows[0]).toEqual([
      'Budget',
      'Limit',
      'Currency',
      'Type',
      'Delta',
      'Percent',
      'Frequency',
      'Interval',
      'Start',
      'End',
      'Rollover',
      'Status',
      'Budget id',
    ]);
    expect(rows.slice(1)).toEqual([
      [
        'Trip',
        '',
        'EUR',
        'delta',
        '20',
        '',
        'one-time',
        '1',
        '2026-02-01',
        '2026-02-10',
        'no',
        'active',
        trip,
      ],
      ['Food', '300.5', 'EUR', 'regular', '', '', 'monthly', '1', '2026-01-01', '', 'no', 'active', monthly],
    ]);
    const march = await exportBudgets(seed, '2026-03-01', '2026-03-31');
    expect(march.slice(1).map((row) => row[0])).toEqual(['Food']);
  });
});
