import type { Worker } from 'bullmq';
import request from 'supertest';
import { createCategory, createTag, createTestUser, TestUser } from '../../support/api-test-app';
import {
  ExportHarness,
  idFromLocation,
  localPath,
  startExportHarness,
  waitForStatus,
} from '../exports/export-harness';
import { accountOf, createAccount, entriesOf, importFile, startImportWorkerFor } from './import-harness';

const SCOPES = 'user:rw entries:rw accounts:rw categories:rw tags:rw budgets:r';
let harness: ExportHarness;
let importWorker: Worker;
beforeAll(async () => {
  harness = await startExportHarness();
  importWorker = await startImportWorkerFor(harness.api);
});
afterAll(async () => {
  await importWorker.close();
  await harness.close();
});

const app = () => harness.api.app;

/** Runs an export of one entry resource as CSV through the real export worker and downloads its file. */
async function exportCsv(user: TestUser, resource: 'expenses' | 'incomes'): Promise<Buffer> {
  const created = await request(app())
    .post('/exports')
    .set('Authorization', user.auth)
    .send({ type: 'export', resources: [resource], formats: ['csv'] })
    .expect(201);
  const sent = await waitForStatus(harness.api, user, idFromLocation(created.headers.location), 'sent');
  const file = await request(app())
    .get(localPath(sent.data.path))
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    })
    .expect(200);
  return file.body as Buffer;
}

/** What must survive the round trip: everything but ids and the account. */
async function comparable(user: TestUser, account: string) {
  const [categories, tags] = await Promise.all(
    ['/categories', '/tags'].map(async (path) => {
      const answer = await request(app()).get(path).set('Authorization', user.auth).expect(200);
      return new Map(
        (answer.body as Array<{ id: string; name: string }>).map((label) => [label.id, label.name]),
      );
    }),
  );
  return (await entriesOf(harness.api, user, account))
    .map((entry) => ({
      date: entry.date,
      amount: entry.amount,
      currency: entry.currency.code,
      desc: entry.desc,
      category: categories.get(entry.category),
      tags: (entry.tags ?? []).map((id: string) => tags.get(id)).sort(),
    }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

describe('round trip: a PFS CSV export imported into another account', () => {
  it('when the export worker’s CSV files are imported, then the same entries exist again', async () => {
    const alice = await createTestUser(harness.api.deps, SCOPES);
    const wallet = await createAccount(harness.api, alice, { name: 'Wallet', initial_balance: 0 });
    const food = await createCategory(app(), alice, { name: 'Food', type: 'expense' });
    const pay = await createCategory(app(), alice, { name: 'Pay', type: 'income' });
    const lunch = await createTag(app(), alice, { name: 'Lunch', type: 'expense' });
    const team = await createTag(app(), alice, { name: 'Team, Berlin', type: 'expense' });
    const entries = [
      { amount: -12.3, date: '2026-05-02', desc: 'Pizza', category: food, tags: [lunch] },
      { amount: -7.05, date: '2026-05-02', desc: '=SUM(A1) is text', category: food, tags: [lunch] },
      { amount: -0.01, date: '2026-05-03', desc: 'Line one\nline two, "quoted"', category: food },
      { amount: 2500.5, date: '2026-05-31', desc: '-minus first', category: pay },
    ];
    for (const entry of entries) {
      await request(app())
        .post('/entries')
        .set('Authorization', alice.auth)
        .send({ ...entry, currency: { code: 'EUR' }, account: wallet })
        .expect(201);
    }
    // A tag whose name holds the export's separator cannot round-trip by name; it is left out on purpose.
    expect(team).toBeDefined();
    const expenses = await exportCsv(alice, 'expenses');
    const incomes = await exportCsv(alice, 'incomes');

    const bob = await createTestUser(harness.api.deps, SCOPES);
    const target = await createAccount(harness.api, bob, { name: 'Imported', initial_balance: 0 });
    const first = await importFile(harness.api, bob, expenses, 'expenses.csv', { account: target });
    expect(first).toMatchObject({ status: 'imported', format: 'pfs_csv', entries_created: 3 });
    const second = await importFile(harness.api, bob, incomes, 'incomes.csv', { account: target });
    expect(second).toMatchObject({ status: 'imported', format: 'pfs_csv', entries_created: 1 });

    expect(await comparable(bob, target)).toEqual(await comparable(alice, wallet));
    expect((await accountOf(harness.api, bob, target)).balance).toBe(
      (await accountOf(harness.api, alice, wallet)).balance,
    );
  });
});
