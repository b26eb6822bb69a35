import { FsStorage } from '@pfs/storage';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { parseCsv, parsePdf, parseXlsx, unzip } from '../../test/support/read-export-file';
import { neutraliseFormula, writeCsv } from './csv.formatter';
import { storeExportFiles } from './export-file';
import { ExportRow, ExportTable, tableFromRows } from './export-table';
import { writePdf } from './pdf.formatter';
import { writeXlsx } from './xlsx.formatter';

const columns: ExportTable['columns'] = [
  { key: 'date', header: 'Date', kind: 'date' },
  { key: 'amount', header: 'Amount', kind: 'decimal' },
  { key: 'desc', header: 'Description', kind: 'text' },
];
const rows: ExportRow[] = [
  { date: '2026-01-02', amount: '-12.50', desc: 'Café, "crème" & co' },
  { date: '2026-01-03', amount: '1000000000000.123456789', desc: '=HYPERLINK("http://evil")' },
  { date: '2026-01-04', amount: '7', desc: null },
];
const expenses = () => tableFromRows({ name: 'expenses', title: 'Expenses', columns }, rows);

let root: string;
let storage: FsStorage;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'pfs-formatters-'));
  storage = new FsStorage({ root, publicBaseUrl: 'http://x.test', linkSecret: 's' });
});
afterAll(() => rm(root, { recursive: true, force: true }));

const read = async (key: string) => buffer((await storage.read(key)).body);

describe('export formatters', () => {
  it('when a table is written as CSV, then parsing it back gives the same cells, formulas neutralised', async () => {
    const stored = await storeExportFiles(
      storage,
      'u/1',
      [{ filename: 'expenses.csv', contentType: 'text/csv', write: (out) => writeCsv(expenses(), out) }],
      'unused.zip',
    );
    expect(stored).toMatchObject({ key: 'u/1/expenses.csv', filename: 'expenses.csv' });
    const data = await read(stored.key);
    expect(stored.size).toBe(data.length);
    expect(await parseCsv(data.toString('utf8'))).toEqual([
      ['Date', 'Amount', 'Description'],
      ['2026-01-02', '-12.50', 'Café, "crème" & co'],
      ['2026-01-03', '1000000000000.123456789', `'=HYPERLINK("http://evil")`],
      ['2026-01-04', '7', ''],
    ]);
  });

  it('when tables are written as XLSX, then each is a worksheet, exact decimals stay exact', async () => {
    const incomes = tableFromRows({ name: 'incomes', title: 'Incomes', columns }, [rows[2]]);
    const stored = await storeExportFiles(
      storage,
      'u/2',
      [
        {
          filename: 'export.xlsx',
          contentType: 'application/xlsx',
          write: (out) => writeXlsx([expenses(), incomes], out),
        },
      ],
      'unused.zip',
    );
    const sheets = await parseXlsx(await read(stored.key));
    expect(Object.keys(sheets)).toEqual(['Expenses', 'Incomes']);
    expect(sheets.Expenses).toEqual([
      ['Date', 'Amount', 'Description'],
      ['2026-01-02', -12.5, 'Café, "crème" & co'],
      // Beyond a double's precision: kept as exact text rather than rounded.
      ['2026-01-03', '1000000000000.123456789', '=HYPERLINK("http://evil")'],
      ['2026-01-04', 7],
    ]);
    expect(sheets.Incomes).toEqual([
      ['Date', 'Amount', 'Description'],
      ['2026-01-04', 7],
    ]);
  });

  it('when tables are written as PDF, then the text holds every row and long tables span pages', async () => {
    const many = tableFromRows(
      { name: 'incomes', title: 'Incomes', columns },
      Array.from({ length: 120 }, (_, i) => ({ date: '2026-02-01', amount: `${i}.25`, desc: `row ${i}` })),
    );
    const stored = await storeExportFiles(
      storage,
      'u/3',
      [
        {
          filename: 'export.pdf',
          contentType: 'application/pdf',
          write: (out) => writePdf([expenses(), many], out, { title: 'My export' }),
        },
      ],
      'unused.zip',
    );
    const pdf = await parsePdf(await read(stored.key));
    expect(pdf.pages).toBeGreaterThan(1);
    expect(pdf.text).toContain('My export');
    expect(pdf.text).toContain('-12.50');
    expect(pdf.text).toContain('row 0');
    expect(pdf.text).toContain('row 119');
  });

  it('when several files are produced, then they are stored as one zip holding each', async () => {
    const stored = await storeExportFiles(
      storage,
      'u/4',
      [
        { filename: 'expenses.csv', contentType: 'text/csv', write: (out) => writeCsv(expenses(), out) },
        {
          filename: 'export.xlsx',
          contentType: 'application/xlsx',
          write: (out) => writeXlsx([expenses()], out),
        },
      ],
      'export-4.zip',
    );
    expect(stored.filename).toBe('export-4.zip');
    const files = await unzip(await read(stored.key));
    expect(Object.keys(files).sort()).toEqual(['expenses.csv', 'export.xlsx']);
    expect((await parseCsv(files['expenses.csv'].toString('utf8')))[1]).toEqual([
      '2026-01-02',
      '-12.50',
      'Café, "crème" & co',
    ]);
    expect((await parseXlsx(files['export.xlsx'])).Expenses).toHaveLength(4);
  });

  it('when a formatter fails midway, then the store fails and leaves no file', async () => {
    const broken: ExportTable = {
      name: 'broken',
      title: 'Broken',
      columns,
      async *openRows() {
        yield rows[0];
        throw new Error('cursor lost');
      },
    };
    await expect(
      storeExportFiles(
        storage,
        'u/5',
        [{ filename: 'b.csv', contentType: 'text/csv', write: (out) => writeCsv(broken, out) }],
        'x.zip',
      ),
    ).rejects.toThrow('cursor lost');
    expect(await storage.size('u/5/b.csv')).toBeUndefined();
  });

  it('when text starts like a formula, then it is prefixed; other text is untouched', () => {
    expect(['=1+1', '+1', '-x', '@SUM', 'plain', ''].map(neutraliseFormula)).toEqual([
      "'=1+1",
      "'+1",
      "'-x",
      "'@SUM",
      'plain',
      '',
    ]);
  });
});
