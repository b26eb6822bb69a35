import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { coalesceChunks } from './coalesce-chunks';
import type { StatementAccount, StatementTransaction } from '@pfs/resource-store';

/** One account's statement header (the store's row): what OFX's STMTRS names before the transactions. */
export type OfxAccount = StatementAccount;

/** One transaction of a statement (the store's row); `account_amount` is in the account's currency (CURDEF). */
export type OfxTransaction = StatementTransaction;

export interface OfxInput {
  accounts: OfxAccount[];
  /** Ordered by account, then date and id. */
  transactions: AsyncIterable<OfxTransaction>;
  from: string | null;
  to: string | null;
  /** Server time of the statement, for DTSERVER and DTASOF. */
  now: Date;
}

// XML 1.0 forbids most control characters even escaped: a description holding one is written without it.
// eslint-disable-next-line no-control-regex -- matching exactly those characters is the point
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

const escapeXml = (text: string) =>
  text
    .replace(XML_FORBIDDEN, '')
    .replace(
      /[<>&'"]/g,
      (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
    );

// OFX limits NAME to 32 characters and MEMO to 255; longer text is cut, never rejected by importers.
const clip = (text: string, max: number) => escapeXml([...text].slice(0, max).join(''));

const ofxDate = (date: string) => date.replaceAll('-', '');

const ofxTimestamp = (at: Date) =>
  `${at
    .toISOString()
    .replace(/[-:T]/g, '')
    .replace(/\.(\d{3})Z$/, '.$1')}[0:GMT]`;

/** OFX account types; PFS types without a bank equivalent are statements of a checking account. */
function ofxAccountType(type: string): string {
  if (type === 'savings') return 'SAVINGS';
  if (type === 'credit_card' || type === 'loan' || type === 'mortgage') return 'CREDITLINE';
  return 'CHECKING';
}

function transactionXml(row: OfxTransaction): string {
  const amount = row.account_amount;
  const type = row.is_transfer ? 'XFER' : amount.startsWith('-') ? 'DEBIT' : 'CREDIT';
  const name = row.category ?? row.description ?? 'Entry';
  const foreign =
    row.currency !== undefined && row.rate !== '1'
      ? `<ORIGCURRENCY><CURRATE>${row.rate}</CURRATE><CURSYM>${row.currency}</CURSYM></ORIGCURRENCY>`
      : '';
  return (
    `<STMTTRN><TRNTYPE>${type}</TRNTYPE><DTPOSTED>${ofxDate(row.date)}</DTPOSTED><TRNAMT>${amount}</TRNAMT>` +
    `<FITID>${row.id}</FITID><NAME>${clip(name, 32)}</NAME>` +
    (row.description ? `<MEMO>${clip(row.description, 255)}</MEMO>` : '') +
    `${foreign}</STMTTRN>\n`
  );
}

/**
 * Streams an OFX 2.2 (XML) bank statement file: one statement per account, each with its entries of the
 * period and its balance. Money is the exact decimal text the database holds, never a float.
 */
async function* ofxDocument(input: OfxInput): AsyncGenerator<string> {
  const now = ofxTimestamp(input.now);
  yield '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n';
  yield '<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>\n';
  yield `<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS><DTSERVER>${now}</DTSERVER><LANGUAGE>ENG</LANGUAGE></SONRS></SIGNONMSGSRSV1>\n<BANKMSGSRSV1>\n`;
  const rows = input.transactions[Symbol.asyncIterator]();
  let next = await rows.next();
  for (const [index, account] of input.accounts.entries()) {
    yield `<STMTTRNRS><TRNUID>${index + 1}</TRNUID><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS><STMTRS><CURDEF>${account.currency}</CURDEF>`;
    yield `<BANKACCTFROM><BANKID>PFS</BANKID><ACCTID>${account.id}</ACCTID><ACCTTYPE>${ofxAccountType(account.type)}</ACCTTYPE></BANKACCTFROM>\n`;
    yield `<BANKTRANLIST><DTSTART>${input.from ? ofxDate(input.from) : '19000101'}</DTSTART><DTEND>${input.to ? ofxDate(input.to) : now}</DTEND>\n`;
    // Rows arrive ordered by account id, as `accounts` are: skip any of an account not listed (none expected),
    // then take this account's run of them.
    while (!next.done && BigInt(next.value.account_id) < BigInt(account.id)) next = await rows.next();
    while (!next.done && next.value.account_id === account.id) {
      yield transactionXml(next.value);
      next = await rows.next();
    }
    yield `</BANKTRANLIST><LEDGERBAL><BALAMT>${account.balance}</BALAMT><DTASOF>${now}</DTASOF></LEDGERBAL></STMTRS></STMTTRNRS>\n`;
  }
  await rows.return?.(undefined);
  yield '</BANKMSGSRSV1></OFX>\n';
}

export async function writeOfx(input: OfxInput, out: Writable): Promise<void> {
  await pipeline(Readable.from(ofxDocument(input)), coalesceChunks(), out);
}
