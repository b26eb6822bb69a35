import ExcelJS from 'exceljs';
import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { unzip } from '../../test/support/read-export-file';
import { ExportColumn, ExportRow, tableFromRows } from './export-table';
import { writeXlsx } from './xlsx.formatter';
import { xlsxCell } from './xlsx-rows';

const columns: ExportColumn[] = [
  { key: 'date', header: 'Date', kind: 'date' },
  { key: 'amount', header: 'Amount', kind: 'decimal' },
  { key: 'count', header: 'Count', kind: 'integer' },
  { key: 'text', header: 'Text <&>', kind: 'text' },
  { key: 'flag', header: 'Flag', kind: 'text' },
];
const rows: ExportRow[] = [
  { date: '2026-01-02', amount: '-12.50', count: 3, text: 'Café, "crème" & <co> \'x\'', flag: true },
  { date: null, amount: '1000000000000.123456789', count: null, text: '', flag: false },
  { date: null, amount: null, count: null, text: null, flag: null },
  {
    date: '2026-01-03',
    amount: '007',
    count: '12',
    text: 'tab\tcr\rlf\nctl\u0001\u007f\u000b end',
    flag: null,
  },
  { date: '2026-01-04', amount: '0.000', count: -1, text: '=SUM(A1)', flag: 'yes' },
];

/** The same rows as exceljs's own streaming writer renders them, one addRow().commit() per row. */
async function exceljsReference(): Promise<Buffer> {
  const out = new PassThrough();
  const bytes = buffer(out);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useSharedStrings: false,
    useStyles: false,
  });
  const sheet = workbook.addWorksheet('Rows');
  sheet.columns = columns.map((column) => ({
    header: column.header,
    key: column.key,
    width: column.kind === 'text' ? 30 : 14,
  }));
  sheet.getRow(1).commit();
  for (const row of rows) sheet.addRow(columns.map((column) => xlsxCell(row[column.key], column))).commit();
  sheet.commit();
  await workbook.commit();
  return bytes;
}

describe('XLSX rows written as XML', () => {
  it('when rows hold numbers, text to escape, control characters, booleans and nulls, then the sheet is byte for byte what exceljs writes', async () => {
    const out = new PassThrough();
    const bytes = buffer(out);
    await writeXlsx([tableFromRows({ name: 'rows', title: 'Rows', columns }, rows)], out);
    const sheet = (await unzip(await bytes))['xl/worksheets/sheet1.xml'].toString('utf8');
    const reference = (await unzip(await exceljsReference()))['xl/worksheets/sheet1.xml'].toString('utf8');
    expect(sheet).toContain('<row r="6"');
    expect(sheet).toBe(reference);
  });
});
