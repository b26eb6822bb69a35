import request from 'supertest';
import { createCategory, createTestUser } from '../../support/api-test-app';
import {
  accountOf,
  createAccount,
  entriesOf,
  importFile,
  postImport,
  useImportHarness,
} from './import-harness';

const { api, newUser } = useImportHarness();

const BANK_CSV = [
  'Booking date;Text;Amount;Category;Tags',
  '01.03.2026;Coffee shop;-3,20;Food;morning',
  '01.03.2026;Coffee shop;-3,20;Food;morning',
  '02.03.2026;"Salary; March";2.500,00;Salary;',
  '03.03.2026;Books;-42,10;food;"work,books"',
].join('\r\n');

const mapping = {
  date: 'Booking date',
  amount: 'Amount',
  description: 'Text',
  category: 'Category',
  tags: 'Tags',
};
const csvFields = (account: string) => ({
  account,
  mapping,
  date_format: 'DD.MM.YYYY',
  decimal_separator: ',',
});

describe('POST /imports with a CSV statement', () => {
  it('when a mapped CSV is imported, then its entries, categories and tags exist and the balance is exact', async () => {
    const user = await newUser();
    const account = await createAccount(api(), user, { initial_balance: 100.05 });
    const done = await importFile(api(), user, BANK_CSV, 'march.csv', csvFields(account));
    expect(done).toMatchObject({
      status: 'imported',
      format: 'csv',
      rows_total: 4,
      rows_done: 4,
      entries_created: 4,
      duplicates: 0,
      filename: 'march.csv',
    });
    expect(done.result.categories_created).toEqual(['Food', 'Salary']);
    expect(done.result.tags_created.sort()).toEqual(['books', 'morning', 'work']);
    const entries = await entriesOf(api(), user, account);
    expect(entries.map((entry) => [entry.date, entry.amount, entry.desc])).toEqual([
      ['2026-03-01', -3.2, 'Coffee shop'],
      ['2026-03-01', -3.2, 'Coffee shop'],
      ['2026-03-02', 2500, 'Salary; March'],
      ['2026-03-03', -42.1, 'Books'],
    ]);
    // "food" matched "Food" case-insensitively: one category for both rows.
    expect(entries[0].category).toBe(entries[3].category);
    const balance = (await accountOf(api(), user, account)).balance;
    expect(String(balance)).toBe('2551.55');
  });

  it('when the same file is imported twice, then the second import creates nothing and reports the duplicates', async () => {
    const user = await newUser();
    const account = await createAccount(api(), user);
    await importFile(api(), user, BANK_CSV, 'march.csv', csvFields(account));
    const again = await importFile(api(), user, BANK_CSV, 'march.csv', csvFields(account));
    expect(again).toMatchObject({ status: 'imported', entries_created: 0, duplicates: 4 });
    expect(again.result.duplicates).toHaveLength(4);
    expect(again.result.duplicates[0]).toEqual({ line: 2, reason: expect.stringMatching(/imported before/) });
    expect(await entriesOf(api(), user, account)).toHaveLength(4);
  });

  it('when an overlapping statement is imported, then only its new rows are written', async () => {
    const user = await newUser();
    const account = await createAccount(api(), user);
    await importFile(api(), user, BANK_CSV, 'march.csv', csvFields(account));
    const overlap = [
      'Booking date;Text;Amount;Category;Tags',
      '01.03.2026;Coffee shop;-3,20;Food;morning',
      '01.03.2026;Coffee shop;-3,20;Food;morning',
      '01.03.2026;Coffee shop;-3,20;Food;morning',
      '03.03.2026;Books;-42,10;food;"work,books"',
      '04.03.2026;Rent;-800,00;Home;',
    ].join('\n');
    const done = await importFile(api(), user, overlap, 'overlap.csv', csvFields(account));
    expect(done).toMatchObject({ status: 'imported', rows_total: 5, entries_created: 2, duplicates: 3 });
    const entries = await entriesOf(api(), user, account);
    expect(entries.filter((entry) => entry.desc === 'Coffee shop')).toHaveLength(3);
    expect(entries.map((entry) => entry.desc)).toContain('Rent');
  });

  it('when a dry run is asked, then it answers the rows, what it would create and the duplicates, writing nothing', async () => {
    const user = await newUser();
    const account = await createAccount(api(), user);
    const books = await createCategory(api().app, user, { name: 'Reading', type: 'expense' });
    await request(api().app)
      .post('/entries')
      .set('Authorization', user.auth)
      .send({
        amount: -42.1,
        currency: { code: 'EUR' },
        date: '2026-03-03',
        desc: 'BOOKS!',
        account,
        category: books,
      })
      .expect(201);
    const plan = await importFile(api(), user, BANK_CSV, 'march.csv', {
      ...csvFields(account),
      dry_run: true,
    });
    expect(plan.status).toBe('parsed');
    expect(plan.rows_total).toBe(4);
    expect(plan.result.rows[2]).toEqual({
      line: 4,
      date: '2026-03-02',
      amount: '2500',
      currency: 'EUR',
      description: 'Salary; March',
      category: 'Salary',
    });
    // The Books row is a duplicate of the entry above, so its tags would not be created.
    expect(plan.result.would_create).toEqual({ categories: ['Food', 'Salary'], tags: ['morning'] });
    expect(plan.result.duplicates).toEqual([
      { line: 5, reason: expect.stringMatching(/already in the account/) },
    ]);
    expect(plan.result.new_rows).toBe(3);
    expect(await entriesOf(api(), user, account)).toHaveLength(1);
    const categories = await request(api().app)
      .get('/categories')
      .set('Authorization', user.auth)
      .expect(200);
    expect(categories.body.map((category: { name: string }) => category.name)).not.toContain('Salary');
  });

  it('when a row is bad, then the import ends in error naming the line and field, and nothing is written', async () => {
    const user = await newUser();
    const account = await createAccount(api(), user);
    const bad = ['Date,Amount,Description', '2026-03-01,-1.00,ok', '2026-03-02,12x,broken'].join('\n');
    const done = await importFile(api(), user, bad, 'bad.csv', { account });
    expect(done.status).toBe('error');
    expect(done.error).toEqual({
      line: 3,
      field: 'amount',
      reason: expect.stringMatching(/"12x" is not an amount/),
    });
    expect(await entriesOf(api(), user, account)).toHaveLength(0);
    const badDate = ['Date,Amount', '2026-02-30,1.00'].join('\n');
    const failed = await importFile(api(), user, badDate, 'bad.csv', { account });
    expect(failed.error).toMatchObject({ line: 2, field: 'date' });
  });

  it('when a Latin-1 file with semicolons comes without overrides, then its encoding and delimiter are detected', async () => {
    const user = await newUser();
    const account = await createAccount(api(), user);
    const text = [
      'Datum;Verwendungszweck;Betrag',
      '2026-03-05;Bäckerei Müller;-4,50',
      '2026-03-06;Café Crème;-2,80',
    ].join('\n');
    const done = await importFile(api(), user, Buffer.from(text, 'latin1'), 'de.csv', {
      account,
      decimal_separator: ',',
    });
    expect(done).toMatchObject({ status: 'imported', entries_created: 2 });
    expect((await entriesOf(api(), user, account)).map((entry) => entry.desc)).toEqual([
      'Bäckerei Müller',
      'Café Crème',
    ]);
  });

  it('when the encoding is given, then it wins over detection', async () => {
    const user = await newUser();
    const account = await createAccount(api(), user);
    // Windows-1252: 0x80 is the euro sign, which ISO-8859-1 does not have.
    const bytes = Buffer.concat([
      Buffer.from('Date,Amount,Description\n2026-03-05,-4.50,Caf'),
      Buffer.from([0xe9, 0x20, 0x80]),
      Buffer.from('\n'),
    ]);
    const done = await importFile(api(), user, bytes, 'cp1252.csv', { account, encoding: 'windows-1252' });
    expect(done).toMatchObject({ status: 'imported', entries_created: 1 });
    expect((await entriesOf(api(), user, account))[0].desc).toBe('Café €');
  });

  it('when the request is bad, then it is refused with the field before anything is queued', async () => {
    const user = await newUser();
    const other = await newUser();
    const account = await createAccount(api(), other);
    const notMine = await postImport(api(), user, BANK_CSV, 'x.csv', { account }).expect(400);
    expect(notMine.body.fields ?? notMine.body).toBeDefined();
    expect(JSON.stringify(notMine.body)).toMatch(/account/);
    const mine = await createAccount(api(), user);
    const badFormat = await postImport(api(), user, BANK_CSV, 'x.csv', {
      account: mine,
      format: 'xls',
    }).expect(400);
    expect(JSON.stringify(badFormat.body)).toMatch(/format/);
    const noFile = await request(api().app)
      .post('/imports')
      .set('Authorization', user.auth)
      .field('account', mine)
      .expect(400);
    expect(JSON.stringify(noFile.body)).toMatch(/file/);
    await request(api().app)
      .post('/imports')
      .set('Authorization', user.auth)
      .send({ account: mine })
      .expect(415);
    const list = await request(api().app).get('/imports').set('Authorization', user.auth).expect(200);
    expect(list.body).toEqual([]);
  });

  it('when another user asks for an import, then it is a 404 and their list does not show it', async () => {
    const user = await newUser();
    const other = await newUser();
    const account = await createAccount(api(), user);
    const done = await importFile(api(), user, BANK_CSV, 'march.csv', csvFields(account));
    await request(api().app).get(`/imports/${done.id}`).set('Authorization', other.auth).expect(404);
    const theirs = await request(api().app).get('/imports').set('Authorization', other.auth).expect(200);
    expect(theirs.body).toEqual([]);
    const mine = await request(api().app).get('/imports').set('Authorization', user.auth).expect(200);
    expect(mine.body.map((item: { id: string }) => item.id)).toEqual([done.id]);
    const readOnly = await createTestUser(api().deps, 'entries:r accounts:r');
    await postImport(api(), readOnly, BANK_CSV, 'x.csv', { account }).expect(403);
  });
});
