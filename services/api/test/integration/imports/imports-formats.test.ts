import { accountOf, createAccount, entriesOf, importFile, useImportHarness } from './import-harness';

const { api, newUser } = useImportHarness();

const trn = (fitid: string, date: string, amount: string, name: string, memo = '') =>
  `<STMTTRN>\n<TRNTYPE>${amount.startsWith('-') ? 'DEBIT' : 'CREDIT'}\n<DTPOSTED>${date}120000[+1:CET]\n<TRNAMT>${amount}\n<FITID>${fitid}\n<NAME>${name}\n${memo ? `<MEMO>${memo}\n` : ''}</STMTTRN>`;

const ofxSgml = (transactions: string[]) =>
  [
    'OFXHEADER:100',
    'DATA:OFXSGML',
    'VERSION:102',
    'ENCODING:USASCII',
    'CHARSET:1252',
    '',
    '<OFX>',
    '<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STMTRS><CURDEF>EUR',
    '<BANKACCTFROM><BANKID>123<ACCTID>456<ACCTTYPE>CHECKING</BANKACCTFROM>',
    '<BANKTRANLIST><DTSTART>20260301<DTEND>20260331',
    ...transactions,
    '</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1>',
    '</OFX>',
  ].join('\n');

describe('POST /imports with OFX, QIF and CAMT.053 statements', () => {
  it('when an OFX 1.x (SGML) file is imported, then its transactions are entries keyed by FITID', async () => {
    const user = await newUser();
    const account = await createAccount(api(), user, { initial_balance: 10 });
    const file = ofxSgml([
      trn('A1', '20260301', '-12.34', 'GROCER &amp; CO', 'card 1234'),
      trn('A2', '20260302', '1000.00', 'EMPLOYER'),
      trn('A3', '20260302', '-0.01', 'FEE'),
    ]);
    const done = await importFile(api(), user, file, 'march.qfx', { account });
    expect(done).toMatchObject({ status: 'imported', format: 'ofx', rows_total: 3, entries_created: 3 });
    const entries = await entriesOf(api(), user, account);
    expect(entries.map((entry) => [entry.date, entry.amount, entry.desc])).toEqual([
      ['2026-03-01', -12.34, 'GROCER & CO / card 1234'],
      ['2026-03-02', 1000, 'EMPLOYER'],
      ['2026-03-02', -0.01, 'FEE'],
    ]);
    expect(String((await accountOf(api(), user, account)).balance)).toBe('997.65');

    // The next month's statement repeats A3 (overlap) and brings A4: only A4 is new.
    const next = ofxSgml([trn('A3', '20260302', '-0.01', 'FEE'), trn('A4', '20260401', '-5.00', 'FEE')]);
    const overlap = await importFile(api(), user, next, 'april.ofx', { account });
    expect(overlap).toMatchObject({ status: 'imported', entries_created: 1, duplicates: 1 });
    expect(overlap.result.duplicates).toEqual([
      { line: expect.any(Number), reason: 'FITID A3 was imported before' },
    ]);
  });

  it('when an OFX 2.x (XML) file is imported, then it reads the same way', async () => {
    const user = await newUser();
    const account = await createAccount(api(), user);
    const file = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
<OFX><CREDITCARDMSGSRSV1><CCSTMTTRNRS><TRNUID>1</TRNUID><CCSTMTRS><CURDEF>EUR</CURDEF>
<BANKTRANLIST>
<STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20260310</DTPOSTED><TRNAMT>-99.99</TRNAMT><FITID>X-1</FITID><NAME>Shoes</NAME></STMTTRN>
<STMTTRN><TRNTYPE>CREDIT</TRNTYPE><DTPOSTED>20260311</DTPOSTED><TRNAMT>20</TRNAMT><FITID>X-2</FITID><NAME>Refund</NAME><MEMO>Shoes</MEMO></STMTTRN>
</BANKTRANLIST></CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>`;
    const done = await importFile(api(), user, file, 'card.ofx', { account });
    expect(done).toMatchObject({ status: 'imported', format: 'ofx', entries_created: 2 });
    const entries = await entriesOf(api(), user, account);
    expect(entries.map((entry) => [entry.amount, entry.desc])).toEqual([
      [-99.99, 'Shoes'],
      [20, 'Refund / Shoes'],
    ]);
    const again = await importFile(api(), user, file, 'card.ofx', { account });
    expect(again).toMatchObject({ entries_created: 0, duplicates: 2 });
  });

  it('when an OFX transaction lacks its amount, then the import fails naming the line and TRNAMT', async () => {
    const user = await newUser();
    const account = await createAccount(api(), user);
    const file = ofxSgml([
      trn('B1', '20260301', '-1.00', 'OK'),
      '<STMTTRN>\n<DTPOSTED>20260302\n<FITID>B2\n</STMTTRN>',
    ]);
    const done = await importFile(api(), user, file, 'bad.ofx', { account });
    expect(done).toMatchObject({
      status: 'error',
      error: { line: 18, field: 'TRNAMT', reason: 'is missing' },
    });
    expect(await entriesOf(api(), user, account)).toHaveLength(0);
  });

  it('when a QIF file is imported, then payee, memo, category and class become the entry', async () => {
    const user = await newUser();
    const account = await createAccount(api(), user);
    const file = [
      '!Type:Bank',
      'D03/01/2026',
      'T-1,234.56',
      'PLandlord',
      'MMarch rent',
      'LHousing/Flat',
      '^',
      "D3/2'26",
      'T50.00',
      'PFriend',
      'L[Savings]',
      '^',
    ].join('\r\n');
    const done = await importFile(api(), user, file, 'bank.qif', { account });
    expect(done).toMatchObject({ status: 'imported', format: 'qif', entries_created: 2 });
    expect(done.result).toMatchObject({ categories_created: ['Housing'], tags_created: ['Flat'] });
    const entries = await entriesOf(api(), user, account);
    expect(entries.map((entry) => [entry.date, entry.amount, entry.desc, Boolean(entry.category)])).toEqual([
      ['2026-03-01', -1234.56, 'Landlord / March rent', true],
      ['2026-03-02', 50, 'Friend', false],
    ]);
  });

  it('when a CAMT.053 statement is imported, then booked entries are signed by CdtDbtInd and pending ones skipped', async () => {
    const user = await newUser();
    const account = await createAccount(api(), user);
    const entry = (ref: string, amount: string, sign: string, status: string, text: string) => `
      <Ntry><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>${sign}</CdtDbtInd><Sts><Cd>${status}</Cd></Sts>
        <BookgDt><Dt>2026-03-15</Dt></BookgDt><ValDt><Dt>2026-03-16</Dt></ValDt><AcctSvcrRef>${ref}</AcctSvcrRef>
        <NtryDtls><TxDtls><RltdPties><Cdtr><Nm>ACME GmbH</Nm></Cdtr></RltdPties>
        <RmtInf><Ustrd>${text}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`;
    const file = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>
<GrpHdr><MsgId>1</MsgId></GrpHdr>
<Stmt><Id>S1</Id><Acct><Id><IBAN>DE02120300000000202051</IBAN></Id><Ccy>EUR</Ccy></Acct>
${entry('R1', '120.50', 'DBIT', 'BOOK', 'Invoice 77')}
${entry('R2', '0.99', 'CRDT', 'BOOK', 'Interest')}
${entry('R3', '5.00', 'DBIT', 'PDNG', 'Pending')}
</Stmt></BkToCstmrStmt></Document>`;
    const done = await importFile(api(), user, file, 'camt.xml', { account });
    expect(done).toMatchObject({ status: 'imported', format: 'camt053', rows_total: 2, entries_created: 2 });
    const entries = await entriesOf(api(), user, account);
    expect(entries.map((item) => [item.date, item.amount, item.desc])).toEqual([
      ['2026-03-15', 0.99, 'ACME GmbH / Interest'],
      ['2026-03-15', -120.5, 'ACME GmbH / Invoice 77'],
    ]);
    const broken = await importFile(api(), user, file.replace('</Stmt>', ''), 'camt.xml', { account });
    expect(broken).toMatchObject({ status: 'error', error: { field: '(file)' } });
    expect(broken.error.reason).toMatch(/not well-formed XML/);
  });

  it('when a Toshl CSV export is imported, then expense and income columns give signed amounts and tags split', async () => {
    const user = await newUser();
    const account = await createAccount(api(), user, { initial_balance: 0 });
    const file = [
      '"Date","Account","Category","Tags","Expense amount","Income amount","Currency","In main currency","Main currency","Description"',
      '"11/1/25","Cash","Food & Drinks","lunch, work","1,012.50","0","EUR","1,012.50","EUR","Team lunch"',
      '"11/2/25","Cash","Salary","","0","2,000.00","EUR","2,000.00","EUR",""',
    ].join('\n');
    const done = await importFile(api(), user, file, 'toshl.csv', { account, date_format: 'M/D/YY' });
    expect(done).toMatchObject({ status: 'imported', format: 'toshl_csv', entries_created: 2 });
    expect(done.result.tags_created).toEqual(['lunch', 'work']);
    const entries = await entriesOf(api(), user, account);
    expect(entries.map((entry) => [entry.date, entry.amount, entry.desc, entry.tags?.length ?? 0])).toEqual([
      ['2025-11-01', -1012.5, 'Team lunch', 2],
      ['2025-11-02', 2000, undefined, 0],
    ]);
    expect(String((await accountOf(api(), user, account)).balance)).toBe('987.5');
  });
});
