import type { ExportFilters } from '@pfs/contracts';
import { buffer } from 'node:stream/consumers';
import { runExport } from '../../src/use-cases/run-export.use-case';
import { createTestPipeline, TestPipeline } from '../support/pipeline-deps';
import { parseCsv } from '../support/read-export-file';
import { LedgerSeed } from '../support/seed-ledger';

interface Seeded {
  id: string;
  kind: 'expenses' | 'incomes' | 'transfers';
  account: string;
  category: string | null;
  tags: string[];
  location: string | null;
  date: string;
}

let pipeline: TestPipeline;
let seed: LedgerSeed;
const ids: Record<string, string> = {};
const entries: Seeded[] = [];

/**
 * A ledger where every filter dimension varies: two accounts, expense and income categories, two tags,
 * two locations, three months, and a transfer pair.
 */
beforeAll(async () => {
  pipeline = await createTestPipeline();
  seed = await LedgerSeed.forNewUser(pipeline.dataSource);
  ids.a1 = await seed.account('A1');
  ids.a2 = await seed.account('A2');
  ids.food = await seed.category('Food');
  ids.fun = await seed.category('Fun');
  ids.pay = await seed.category('Pay', 'income');
  ids.gift = await seed.category('Gift', 'income');
  ids.t1 = await seed.tag('t1');
  ids.t2 = await seed.tag('t2');
  const plan: Array<Omit<Seeded, 'id'> & { amount: string }> = [];
  let day = 1;
  for (const account of [ids.a1, ids.a2]) {
    for (const [category, kind] of [
      [ids.food, 'expenses'],
      [ids.fun, 'expenses'],
      [ids.pay, 'incomes'],
      [ids.gift, 'incomes'],
    ] as const) {
      for (const tags of [[], [ids.t1], [ids.t2], [ids.t1, ids.t2]]) {
        for (const location of [null, 'L1', 'L2']) {
          const month = (day % 3) + 1;
          plan.push({
            kind,
            account,
            category,
            tags,
            location,
            date: `2026-0${month}-${String((day % 27) + 1).padStart(2, '0')}`,
            amount: kind === 'expenses' ? `-${day}.5` : `${day}`,
          });
          day += 1;
        }
      }
    }
  }
  for (const item of plan) {
    const id = await seed.entry({
      account: item.account,
      amount: item.amount,
      date: item.date,
      category: item.category ?? undefined,
      tags: item.tags,
      location: item.location ?? undefined,
    });
    entries.push({ ...item, id });
  }
  const out = await seed.entry({ account: ids.a1, amount: '-50', date: '2026-02-10', location: 'L1' });
  const into = await seed.entry({ account: ids.a2, amount: '50', date: '2026-02-10', transactionOf: out });
  await pipeline.dataSource.query(`UPDATE entries SET transaction_id = $1 WHERE id = $2`, [into, out]);
  entries.push({
    id: out,
    kind: 'transfers',
    account: ids.a1,
    category: null,
    tags: [],
    location: 'L1',
    date: '2026-02-10',
  });
  entries.push({
    id: into,
    kind: 'transfers',
    account: ids.a2,
    category: null,
    tags: [],
    location: null,
    date: '2026-02-10',
  });
});
afterAll(() => pipeline.close());

/** The reference semantics of docs/exports.md, written plainly. */
function expected(resource: Seeded['kind'], filters: ExportFilters, from?: string, to?: string): string[] {
  const own = resource === 'transfers' ? {} : (filters[resource] ?? {});
  const any = (list: string[] | undefined, test: (id: string) => boolean) => !list?.length || list.some(test);
  const none = (list: string[] | undefined, test: (id: string) => boolean) =>
    !list?.length || !list.some(test);
  return entries
    .filter((e) => e.kind === resource)
    .filter((e) => (!from || e.date >= from) && (!to || e.date <= to))
    .filter(
      (e) =>
        any(filters.accounts, (id) => id === e.account) &&
        none(filters['!accounts'], (id) => id === e.account),
    )
    .filter(
      (e) =>
        any(filters.locations, (id) => id === e.location) &&
        none(filters['!locations'], (id) => id === e.location),
    )
    .filter(
      (e) =>
        any(own.categories, (id) => id === e.category) && none(own['!categories'], (id) => id === e.category),
    )
    .filter(
      (e) => any(own.tags, (id) => e.tags.includes(id)) && none(own['!tags'], (id) => e.tags.includes(id)),
    )
    .map((e) => e.id)
    .sort();
}

async function exportedIds(
  resource: Seeded['kind'],
  filters: ExportFilters,
  from?: string,
  to?: string,
): Promise<string[]> {
  const created = await pipeline.deps.repos.store.change(seed.userId, (change) =>
    pipeline.deps.repos.exports.create(change, {
      type: 'export',
      resources: [resource],
      formats: ['csv'],
      filters,
      from: from ?? null,
      to: to ?? null,
    }),
  );
  const done = (await runExport(pipeline.deps, seed.userId, created.id))!;
  expect(done.status).toBe('sent');
  const rows = await parseCsv(
    (await buffer((await pipeline.deps.storage.read(done.storageKey!)).body)).toString(),
  );
  return rows
    .slice(1)
    .map((row) => row[8])
    .sort();
}

// Resolved lazily: ids exist only after beforeAll.
const cases: Array<[string, Seeded['kind'], () => ExportFilters, string?, string?]> = [
  ['no filter', 'expenses', () => ({})],
  ['accounts', 'expenses', () => ({ accounts: [ids.a1] })],
  ['!accounts', 'incomes', () => ({ '!accounts': [ids.a1] })],
  ['locations', 'expenses', () => ({ locations: ['L1'] })],
  ['!locations', 'expenses', () => ({ '!locations': ['L1'] })],
  ['expenses.categories', 'expenses', () => ({ expenses: { categories: [ids.food] } })],
  ['expenses.!categories', 'expenses', () => ({ expenses: { '!categories': [ids.food] } })],
  ['expenses.tags', 'expenses', () => ({ expenses: { tags: [ids.t1] } })],
  ['expenses.!tags', 'expenses', () => ({ expenses: { '!tags': [ids.t1] } })],
  ['incomes.categories', 'incomes', () => ({ incomes: { categories: [ids.pay] } })],
  ['incomes.!tags', 'incomes', () => ({ incomes: { '!tags': [ids.t2] } })],
  [
    'incomes filters leave expenses alone',
    'expenses',
    () => ({ incomes: { categories: [ids.pay], tags: [ids.t1] } }),
  ],
  ['from/to', 'expenses', () => ({}), '2026-02-01', '2026-02-28'],
  [
    'accounts + categories + !tags',
    'expenses',
    () => ({ accounts: [ids.a2], expenses: { categories: [ids.fun], '!tags': [ids.t2] } }),
  ],
  [
    '!accounts + locations + tags + from',
    'expenses',
    () => ({ '!accounts': [ids.a2], locations: ['L2'], expenses: { tags: [ids.t1, ids.t2] } }),
    '2026-02-01',
  ],
  [
    'every filter at once',
    'incomes',
    () => ({
      accounts: [ids.a1, ids.a2],
      '!accounts': [ids.a2],
      locations: ['L1', 'L2'],
      '!locations': ['L2'],
      incomes: {
        categories: [ids.pay, ids.gift],
        '!categories': [ids.gift],
        tags: [ids.t1],
        '!tags': [ids.t2],
      },
    }),
    '2026-01-01',
    '2026-03-31',
  ],
  ['a filter matching nothing', 'expenses', () => ({ accounts: ['999999999'] })],
  ['transfers with accounts', 'transfers', () => ({ accounts: [ids.a2] })],
  ['transfers with !locations', 'transfers', () => ({ '!locations': ['L1'] })],
];

describe('export filters', () => {
  // Every row padded to five values: jest would otherwise pass its done callback as a missing argument.
  const rows = cases.map(
    ([name, resource, filters, from, to]) => [name, resource, filters, from ?? '', to ?? ''] as const,
  );
  it.each(rows)(
    'when filtered by %s, then exactly the matching %s are exported',
    async (_name, resource, filters, from, to) => {
      const want = expected(resource, filters(), from || undefined, to || undefined);
      expect(await exportedIds(resource, filters(), from || undefined, to || undefined)).toEqual(want);
    },
  );

  it('when the reference set is checked, then the cases are not vacuous', () => {
    expect(expected('expenses', {}).length).toBe(48);
    expect(
      expected('expenses', { accounts: [ids.a2], expenses: { categories: [ids.fun], '!tags': [ids.t2] } })
        .length,
    ).toBe(6);
  });
});
