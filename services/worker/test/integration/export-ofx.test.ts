import { buffer } from 'node:stream/consumers';
import { runExport } from '../../src/use-cases/run-export.use-case';
import { createTestPipeline, TestPipeline } from '../support/pipeline-deps';
import { unzip } from '../support/read-export-file';
import { LedgerSeed } from '../support/seed-ledger';

let pipeline: TestPipeline;
let seed: LedgerSeed;
const ids: Record<string, string> = {};

beforeAll(async () => {
  pipeline = await createTestPipeline();
  seed = await LedgerSeed.forNewUser(pipeline.dataSource);
  ids.eur = await seed.account('Cash', 'EUR', '100.5');
  ids.usd = await seed.account('Dollars', 'USD');
  ids.food = await seed.category('Food & <Drinks>');
  ids.pay = await seed.category('Pay', 'income');
  ids.lunch = await seed.entry({
    account: ids.eur,
    amount: '-12.35',
    date: '2026-03-02',
    category: ids.food,
    description: 'Lunch "at" <Joe\'s> & co\u0007',
  });
  ids.salary = await seed.entry({ account: ids.eur, amount: '2000', date: '2026-03-01', category: ids.pay });
  // 10 USD paid from the EUR account at 0.9 EUR per USD.
  ids.foreign = await seed.entry({
    account: ids.eur,
    amount: '-10',
    currency: 'USD',
    rate: '0.9',
    accountAmount: '-9',
    date: '2026-03-03',
    category: ids.food,
  });
  ids.out = await seed.entry({ account: ids.eur, amount: '-50', date: '2026-03-04' });
  ids.in = await seed.entry({ account: ids.usd, amount: '55', date: '2026-03-04', transactionOf: ids.out });
  await pipeline.dataSource.query(`UPDATE entries SET transaction_id = $1 WHERE id = $2`, [ids.in, ids.out]);
  ids.april = await seed.entry({ account: ids.usd, amount: '-1', date: '2026-04-01', category: ids.food });
});
afterAll(() => pipeline.close());

async function exportOfx(resources: string[], extra: Record<string, unknown> = {}) {
  const created = await pipeline.deps.repos.store.change(seed.userId, (change) =>
    pipeline.deps.repos.exports.create(change, {
      type: 'export',
      resources: resources as never,
      formats: ['ofx'],
      filters: null,
      from: '2026-03-01',
      to: '2026-03-31',
      ...extra,
    }),
  );
  const done = (await runExport(pipeline.deps, seed.userId, created.id))!;
  expect(done.status).toBe('sent');
  expect(done.filename).toBe(`export-${created.id}.ofx`);
  return (await buffer((await pipeline.deps.storage.read(done.storageKey!)).body)).toString('utf8');
}

/** Each statement's account id, its transactions (id → fields) and its ledger balance. */
function statements(xml: string) {
  return [...xml.matchAll(/<STMTRS>([\s\S]*?)<\/STMTRS>/g)].map(([, body]) => ({
    account: /<ACCTID>(\d+)<\/ACCTID>/.exec(body)![1],
    currency: /<CURDEF>([A-Z]{3})<\/CURDEF>/.exec(body)![1],
    balance: /<BALAMT>([-\d.]+)<\/BALAMT>/.exec(body)![1],
    transactions: Object.fromEntries(
      [...body.matchAll(/<STMTTRN>([\s\S]*?)<\/STMTTRN>/g)].map(([, trn]) => [
        /<FITID>(\d+)<\/FITID>/.exec(trn)![1],
        {
          type: /<TRNTYPE>(\w+)<\/TRNTYPE>/.exec(trn)![1],
          date: /<DTPOSTED>(\d+)<\/DTPOSTED>/.exec(trn)![1],
          amount: /<TRNAMT>([-\d.]+)<\/TRNAMT>/.exec(trn)![1],
          name: /<NAME>([^<]*)<\/NAME>/.exec(trn)?.[1],
          memo: /<MEMO>([^<]*)<\/MEMO>/.exec(trn)?.[1],
          original: /<ORIGCURRENCY><CURRATE>([\d.]+)<\/CURRATE><CURSYM>([A-Z]{3})<\/CURSYM>/
            .exec(trn)
            ?.slice(1),
        },
      ]),
    ),
  }));
}

describe('OFX export', () => {
  it('when ofx is asked, then each account is a statement of its entries in the period, in its own currency, with its balance', async () => {
    const xml = await exportOfx(['expenses', 'incomes', 'transfers']);
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<?OFX OFXHEADER="200" VERSION="220"',
      ),
    ).toBe(true);
    const [eur, usd] = statements(xml);
    expect(eur).toMatchObject({ account: ids.eur, currency: 'EUR', balance: '2029.15' });
    expect(eur.transactions).toEqual({
      [ids.lunch]: {
        type: 'DEBIT',
        date: '20260302',
        amount: '-12.35',
        name: 'Food &amp; &lt;Drinks&gt;',
        memo: 'Lunch &quot;at&quot; &lt;Joe&apos;s&gt; &amp; co',
        original: undefined,
      },
      [ids.salary]: {
        type: 'CREDIT',
        date: '20260301',
        amount: '2000',
        name: 'Pay',
        memo: undefined,
        original: undefined,
      },
      [ids.foreign]: {
        type: 'DEBIT',
        date: '20260303',
        amount: '-9',
        name: 'Food &amp; &lt;Drinks&gt;',
        memo: undefined,
        original: ['0.9', 'USD'],
      },
      [ids.out]: {
        type: 'XFER',
        date: '20260304',
        amount: '-50',
        name: 'Entry',
        memo: undefined,
        original: undefined,
      },
    });
    // The April entry is outside the period; the balance is the account's, now.
    expect(usd).toMatchObject({ account: ids.usd, currency: 'USD', balance: '54' });
    expect(Object.keys(usd.transactions)).toEqual([ids.in]);
  });

  it('when only expenses and one account are chosen, then the statement holds just those', async () => {
    const xml = await exportOfx(['expenses'], { filters: { '!accounts': [ids.usd] } });
    const all = statements(xml);
    expect(all.map((statement) => statement.account)).toEqual([ids.eur]);
    expect(Object.keys(all[0].transactions).sort()).toEqual([ids.lunch, ids.foreign].sort());
  });

  it('when xls (the reference name) and xlsx are both asked, then one workbook is written', async () => {
    const created = await pipeline.deps.repos.store.change(seed.userId, (change) =>
      pipeline.deps.repos.exports.create(change, {
        type: 'export',
        resources: ['expenses'],
        formats: ['xls', 'xlsx', 'csv'],
        filters: null,
        from: null,
        to: null,
      }),
    );
    const done = (await runExport(pipeline.deps, seed.userId, created.id))!;
    const files = await unzip(await buffer((await pipeline.deps.storage.read(done.storageKey!)).body));
    expect(Object.keys(files).sort()).toEqual(
      [`expenses-${created.id}.csv`, `export-${created.id}.xlsx`].sort(),
    );
  });
});
