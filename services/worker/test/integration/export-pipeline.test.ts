import type { ExportRecord } from '@pfs/resource-store';
import { verifyDownloadToken } from '@pfs/storage';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { runExport } from '../../src/use-cases/run-export.use-case';
import { LedgerSeed } from '../support/seed-ledger';
import { createTestPipeline, LINK_SECRET, TestPipeline } from '../support/pipeline-deps';
import { parseCsv, parsePdf, parseXlsx, unzip } from '../support/read-export-file';

let pipeline: TestPipeline;
beforeAll(async () => {
  pipeline = await createTestPipeline();
});
afterAll(() => pipeline.close());

const readStored = async (record: ExportRecord) =>
  buffer((await pipeline.deps.storage.read(record.storageKey!)).body);

async function exportOf(
  userId: string,
  input: Partial<Parameters<TestPipeline['deps']['repos']['exports']['create']>[1]>,
) {
  const created = await pipeline.deps.repos.store.change(userId, (change) =>
    pipeline.deps.repos.exports.create(change, {
      type: 'export',
      resources: ['expenses'],
      formats: ['csv'],
      filters: null,
      from: null,
      to: null,
      ...input,
    }),
  );
  return (await runExport(pipeline.deps, userId, created.id))!;
}

describe('the export pipeline', () => {
  it('when an export runs, then it moves generating → generated → sending → sent, each move stored before the next', async () => {
    const seed = await LedgerSeed.forNewUser(pipeline.dataSource);
    const account = await seed.account('Wallet');
    await seed.entry({ account, amount: '-3.20', date: '2026-03-01', description: 'coffee' });
    const created = await pipeline.deps.repos.store.change(seed.userId, (change) =>
      pipeline.deps.repos.exports.create(change, {
        type: 'export',
        resources: ['expenses'],
        formats: ['csv'],
        filters: null,
        from: null,
        to: null,
      }),
    );
    expect(created.status).toBe('generating');
    const stored: string[] = [];
    // Each status move is a change of its own (the pipeline opens no other change on this path).
    const change = pipeline.deps.repos.store.change.bind(pipeline.deps.repos.store);
    const spy = jest.spyOn(pipeline.deps.repos.store, 'change').mockImplementation(async (...args) => {
      const result = await change(...args);
      // Read back from Postgres, outside the pipeline: the move is committed before the next step.
      const [{ status }] = await pipeline.dataSource.query(`SELECT status FROM exports WHERE id = $1`, [
        created.id,
      ]);
      stored.push(status);
      return result;
    });
    try {
      const done = (await runExport(pipeline.deps, seed.userId, created.id))!;
      expect(stored).toEqual(['generated', 'sending', 'sent']);
      expect(done.status).toBe('sent');
      expect(done.filename).toBe(`expenses-${created.id}.csv`);
      expect(done.filesize).toBe((await readStored(done)).length);
      expect(done.validUntil!.getTime()).toBeGreaterThan(Date.now() + 3500_000);
      const url = new URL(done.downloadUrl!);
      expect(url.pathname).toBe(`/export-files/${done.storageKey}`);
      expect(verifyDownloadToken(LINK_SECRET, done.storageKey!, url.searchParams.get('token')!).valid).toBe(
        true,
      );
    } finally {
      spy.mockRestore();
    }
    const rows = await parseCsv(
      (
        await readStored(
          (await pipeline.deps.repos.exports.findById(
            pipeline.deps.repos.store.read(seed.userId),
            created.id,
          ))!,
        )
      ).toString(),
    );
    expect(rows).toEqual([
      ['Date', 'Account', 'Category', 'Tags', 'Amount', 'Currency', 'Description', 'Location', 'Entry id'],
      ['2026-03-01', 'Wallet', '', '', '-3.2', 'EUR', 'coffee', '', expect.any(String)],
    ]);
  });

  it('when an export is sent, then the user has one notification for it, even if delivery is repeated', async () => {
    const seed = await LedgerSeed.forNewUser(pipeline.dataSource);
    await pipeline.deps.repos.pushTokens.register(
      pipeline.deps.repos.store.read(seed.userId),
      'app-1',
      'google',
      'device-token-1',
    );
    const done = await exportOf(seed.userId, { resources: ['balances'] });
    const page = await pipeline.deps.repos.notifications.list(pipeline.deps.repos.store.read(seed.userId), {
      perPage: 50,
      offset: 0,
      includeDeleted: false,
    });
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ type: 'export', action: 'generated', exportId: done.id });
    expect(page.items[0].text).toContain(done.filename!);
    const again = await pipeline.deps.repos.notifications.createForExport(
      pipeline.deps.repos.store.read(seed.userId),
      done.id,
      {
        type: 'export',
        action: 'generated',
        text: 'x',
      },
    );
    expect(again.id).toBe(page.items[0].id);
    const pushes = await pipeline.deps.repos.pushTokens.listDeliveries(
      pipeline.deps.repos.store.read(seed.userId),
    );
    expect(pushes).toHaveLength(1);
    expect(pushes[0].payload).toMatchObject({
      device_type: 'google',
      export: { id: done.id },
      notification: { id: page.items[0].id },
    });
  });

  it('when the export is already seen, then no push is recorded (the notification still is)', async () => {
    const seed = await LedgerSeed.forNewUser(pipeline.dataSource);
    await pipeline.deps.repos.pushTokens.register(
      pipeline.deps.repos.store.read(seed.userId),
      undefined,
      'apple',
      'device-token-2',
    );
    const created = await pipeline.deps.repos.store.change(seed.userId, (change) =>
      pipeline.deps.repos.exports.create(change, {
        type: 'export',
        resources: ['summary'],
        formats: ['csv'],
        filters: null,
        from: null,
        to: null,
      }),
    );
    await pipeline.deps.repos.store.change(seed.userId, (change) =>
      pipeline.deps.repos.exports.setSeen(change, created.id, true),
    );
    await runExport(pipeline.deps, seed.userId, created.id);
    expect(
      await pipeline.deps.repos.pushTokens.listDeliveries(pipeline.deps.repos.store.read(seed.userId)),
    ).toEqual([]);
    expect(
      (
        await pipeline.deps.repos.notifications.list(pipeline.deps.repos.store.read(seed.userId), {
          perPage: 10,
          offset: 0,
          includeDeleted: false,
        })
      ).total,
    ).toBe(1);
  });

  it('when several formats and resources are asked, then one zip holds a CSV per resource, the workbook and the PDF, all agreeing', async () => {
    const seed = await LedgerSeed.forNewUser(pipeline.dataSource);
    const account = await seed.account('Bank', 'EUR', '100');
    const food = await seed.category('Food');
    const salary = await seed.category('Salary', 'income');
    await seed.entry({ account, amount: '-10.25', date: '2026-01-05', category: food, description: 'lunch' });
    await seed.entry({ account, amount: '2500', date: '2026-01-31', category: salary, description: 'pay' });
    const done = await exportOf(seed.userId, {
      resources: ['expenses', 'incomes', 'summary', 'balances'],
      formats: ['csv', 'xlsx', 'pdf'],
    });
    expect(done.filename).toBe(`export-${done.id}.zip`);
    const files = await unzip(await readStored(done));
    expect(Object.keys(files).sort()).toEqual(
      [
        `balances-${done.id}.csv`,
        `expenses-${done.id}.csv`,
        `export-${done.id}.pdf`,
        `export-${done.id}.xlsx`,
        `incomes-${done.id}.csv`,
        `summary-${done.id}.csv`,
      ].sort(),
    );
    const summary = await parseCsv(files[`summary-${done.id}.csv`].toString());
    expect(summary).toEqual([
      ['Currency', 'Expenses', 'Expense count', 'Incomes', 'Income count'],
      ['EUR', '10.25', '1', '2500', '1'],
    ]);
    const balances = await parseCsv(files[`balances-${done.id}.csv`].toString());
    expect(balances[1].slice(0, 5)).toEqual(['Bank', 'custom', 'active', '2589.75', 'EUR']);
    const sheets = await parseXlsx(files[`export-${done.id}.xlsx`]);
    expect(Object.keys(sheets)).toEqual(['Expenses', 'Incomes', 'Summary', 'Balances']);
    expect(sheets.Expenses[1].slice(0, 7)).toEqual([
      '2026-01-05',
      'Bank',
      'Food',
      undefined,
      -10.25,
      'EUR',
      'lunch',
    ]);
    expect(sheets.Incomes[1][4]).toBe(2500);
    expect(sheets.Summary[1].slice(0, 2)).toEqual(['EUR', 10.25]);
    const pdf = await parsePdf(files[`export-${done.id}.pdf`]);
    for (const text of ['Expenses', 'Incomes', 'lunch', 'pay', '2589.75']) expect(pdf.text).toContain(text);
  });

  it('when user_data is asked, then one JSON archive holds every table of the user and nothing of others or of secrets', async () => {
    const seed = await LedgerSeed.forNewUser(pipeline.dataSource);
    const other = await LedgerSeed.forNewUser(pipeline.dataSource);
    const account = await seed.account('Mine');
    await other.account('Not mine');
    await seed.entry({ account, amount: '-1.5', date: '2026-02-02', description: 'gum' });
    await seed.tag('trip');
    const done = await exportOf(seed.userId, { type: 'user_data', resources: [], formats: [] });
    expect(done.filename).toBe(`user-data-${done.id}.json`);
    const archive = JSON.parse((await readStored(done)).toString());
    expect(archive).toMatchObject({ format: 'pfs.user_data', version: 1, user: { id: Number(seed.userId) } });
    expect(archive.tables.accounts.map((a: { name: string }) => a.name)).toEqual(['Mine']);
    expect(archive.tables.entries).toEqual([expect.objectContaining({ amount: -1.5, description: 'gum' })]);
    expect(archive.tables.tags.map((t: { name: string }) => t.name)).toEqual(['trip']);
    const names = Object.keys(archive.tables);
    expect(names.filter((name) => /^(auth_|oauth_|push_|exports$|resource_revisions$)/.test(name))).toEqual(
      [],
    );
    expect(JSON.stringify(archive)).not.toContain('Not mine');
  });

  it('when attachments are asked, then a zip holds each live image of the user and an index of them with their entries', async () => {
    const seed = await LedgerSeed.forNewUser(pipeline.dataSource);
    const empty = await exportOf(seed.userId, { type: 'attachments', resources: [], formats: [] });
    expect(JSON.parse((await unzip(await readStored(empty)))['index.json'].toString())).toEqual({
      images: [],
    });

    const store = (prefix: string, name: string, text: string) =>
      pipeline.deps.storage.write(
        `images/${seed.userId}/${prefix}/${name}`,
        Readable.from([Buffer.from(text)]),
        {
          contentType: 'application/octet-stream',
        },
      );
    const photo = await seed.image({ type: 'image', filename: '../Receipt: café.png', prefix: 'p1' });
    await store('p1', 'full.jpg', 'photo-bytes');
    await store('p1', 'thumb.jpg', 'thumb-bytes');
    const pdf = await seed.image({ type: 'pdf', filename: null, prefix: 'p2' });
    await store('p2', 'document.pdf', 'pdf-bytes');
    const lost = await seed.image({ type: 'image', filename: 'lost.jpg', prefix: 'p3' });
    await seed.image({ type: 'image', filename: 'gone.jpg', prefix: 'p4', deleted: true });
    const account = await seed.account('Cash');
    const entry = await seed.entry({ account, amount: '-3', date: '2026-03-01', images: [photo, pdf] });
    const other = LedgerSeed.forNewUser(pipeline.dataSource);
    await (await other).image({ type: 'image', filename: 'not-mine.jpg', prefix: 'x' });

    const done = await exportOf(seed.userId, { type: 'attachments', resources: [], formats: [] });
    const files = await unzip(await readStored(done));
    const index = JSON.parse(files['index.json'].toString());
    expect(index).toEqual({
      images: [
        {
          id: photo,
          type: 'image',
          filename: '../Receipt: café.png',
          file: `images/${photo}-_Receipt_ caf_.jpg`,
          entries: [entry],
        },
        { id: pdf, type: 'pdf', filename: null, file: `images/${pdf}-pdf.pdf`, entries: [entry] },
        {
          id: lost,
          type: 'image',
          filename: 'lost.jpg',
          file: null,
          entries: [],
          skipped: 'The file was no longer in storage when the export ran.',
        },
      ],
    });
    expect(files[`images/${photo}-_Receipt_ caf_.jpg`].toString()).toBe('photo-bytes');
    expect(files[`images/${pdf}-pdf.pdf`].toString()).toBe('pdf-bytes');
    expect(Object.keys(files).sort()).toEqual(
      ['index.json', `images/${photo}-_Receipt_ caf_.jpg`, `images/${pdf}-pdf.pdf`].sort(),
    );

    const sheet = await exportOf(seed.userId, { resources: ['attachments'], formats: ['csv'] });
    const rows = await parseCsv((await readStored(sheet)).toString());
    expect(rows).toEqual([
      ['Date', 'Entry id', 'Description', 'File', 'Type', 'Image id'],
      ['2026-03-01', entry, '', '../Receipt: café.png', 'image', photo],
      ['2026-03-01', entry, '', '', 'pdf', pdf],
    ]);
  });
});
