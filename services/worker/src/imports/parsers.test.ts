import { Readable } from 'node:stream';
import { parseCamt } from './camt.parser';
import { parseCsv } from './csv.parser';
import { detectDelimiter, detectFormat } from './detect-format';
import { openStatementRows } from './open-rows';
import { parseOfx } from './ofx.parser';
import { ImportFileError, ParsedRow } from './parsed-row';
import { parseQif } from './qif.parser';

/** The text cut into pieces of `size` characters: tags, fields and lines split across chunks. */
async function* chunksOf(text: string, size: number): AsyncGenerator<string> {
  for (let start = 0; start < text.length; start += size) yield text.slice(start, start + size);
}

async function collect(rows: AsyncIterable<ParsedRow>): Promise<ParsedRow[]> {
  const out: ParsedRow[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

async function failure(rows: AsyncIterable<ParsedRow>): Promise<ImportFileError> {
  try {
    await collect(rows);
  } catch (error) {
    return error as ImportFileError;
  }
  throw new Error('expected the file to be refused');
}

const OFX = `OFXHEADER:100
DATA:OFXSGML

<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD
<BANKTRANLIST>
<STMTTRN>
<TRNTYPE>DEBIT
<DTPOSTED>20260105
<TRNAMT>-1,50
<FITID>1
<NAME>Caf&eacute; &amp; Bar
</STMTTRN>
<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20260106000000.000[-5:EST]<TRNAMT>+20.00<FITID>2<NAME>Pay<CURRENCY><CURRATE>1.1<CURSYM>EUR</CURRENCY></STMTTRN>
<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20260107<TRNAMT>.5<FITID>3<MEMO>Interest<ORIGCURRENCY><CURRATE>1.1<CURSYM>EUR</ORIGCURRENCY></STMTTRN>
</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`;

describe('the statement parsers, fed in pieces', () => {
  it.each([1, 7, 4096])(
    'when OFX arrives in chunks of %i characters, then every transaction is read the same',
    async (size) => {
      const rows = await collect(parseOfx(chunksOf(OFX, size)));
      expect(rows).toEqual([
        {
          line: 6,
          date: '2026-01-05',
          amount: '-1.50',
          currency: 'USD',
          description: 'Caf&eacute; & Bar',
          tags: [],
          fitid: '1',
        },
        {
          line: 13,
          date: '2026-01-06',
          amount: '20.00',
          currency: 'EUR',
          description: 'Pay',
          tags: [],
          fitid: '2',
        },
        {
          line: 14,
          date: '2026-01-07',
          amount: '0.5',
          currency: 'USD',
          description: 'Interest',
          tags: [],
          fitid: '3',
        },
      ]);
    },
  );

  it('when an OFX file is cut short inside a transaction, then it is refused at that transaction', async () => {
    const error = await failure(parseOfx(chunksOf(OFX.slice(0, OFX.indexOf('</STMTTRN>')), 64)));
    expect(error).toMatchObject({ line: 6, field: 'STMTTRN' });
  });

  it('when a CSV has quoted line breaks, then a row is named by the line it starts on', async () => {
    const text = 'Date,Amount,Description\n2026-01-01,1,"two\nlines"\n\n2026-01-02,x,bad\n';
    const error = await failure(parseCsv(chunksOf(text, 5), 'csv', { delimiter: ',' }));
    expect(error).toMatchObject({ line: 5, field: 'amount' });
  });

  it('when QIF comes in pieces, then records end at ^ and investment sections are skipped', async () => {
    const text =
      '!Type:Bank\nD2026-01-03\nT-4.00\nPShop\n^\n!Type:Invst\nD2026-01-04\nT9\n^\n!Type:Cash\nD01/05/26\nU7.25\n^\n';
    const rows = await collect(parseQif(chunksOf(text, 3), {}));
    expect(rows.map((row) => [row.line, row.date, row.amount])).toEqual([
      [2, '2026-01-03', '-4'],
      [11, '2026-01-05', '7.25'],
    ]);
  });

  it('when CAMT.053 arrives in chunks, then entries keep their order, currency and line', async () => {
    const entry = (amount: string, sign: string) =>
      `<Ntry><Amt Ccy="CHF">${amount}</Amt><CdtDbtInd>${sign}</CdtDbtInd><BookgDt><DtTm>2026-02-01T10:00:00</DtTm></BookgDt><AddtlNtryInf>x</AddtlNtryInf></Ntry>\n`;
    const text = `<?xml version="1.0"?>\n<Document><BkToCstmrStmt><Stmt>\n${entry('1.00', 'DBIT')}${entry('2.50', 'CRDT')}</Stmt></BkToCstmrStmt></Document>`;
    const rows = await collect(parseCamt(chunksOf(text, 11)));
    expect(rows.map((row) => [row.line, row.amount, row.currency, row.date])).toEqual([
      [3, '-1.00', 'CHF', '2026-02-01'],
      [4, '2.50', 'CHF', '2026-02-01'],
    ]);
  });

  it('when nothing is said about a file, then its format and CSV delimiter are detected from its start', async () => {
    expect(detectFormat(OFX)).toBe('ofx');
    expect(
      detectFormat('<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">'),
    ).toBe('camt053');
    expect(detectFormat('!Type:Bank\n')).toBe('qif');
    expect(
      detectFormat('\uFEFFDate,Account,Category,Tags,Amount,Currency,Description,Location,Entry id\n'),
    ).toBe('pfs_csv');
    expect(
      detectFormat('"Date","Account","Category","Tags","Expense amount","Income amount","Currency"\n'),
    ).toBe('toshl_csv');
    expect(detectFormat('a;b;c\n1;2;3\n')).toBe('csv');
    expect(detectDelimiter('a;b;"c;d"\n1;2;3\n')).toBe(';');
    expect(detectDelimiter('a\tb\n1\t2\n')).toBe('\t');
  });

  it('when a UTF-16 file with a byte order mark is opened, then it is decoded before detection', async () => {
    const text = 'Date,Amount,Description\n2026-01-01,-1.00,Crème\n';
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const statement = await openStatementRows(Readable.from([bytes]), null, {});
    expect(statement).toMatchObject({ format: 'csv', encoding: 'utf-16le' });
    expect((await collect(statement.rows)).map((row) => row.description)).toEqual(['Crème']);
  });
});
