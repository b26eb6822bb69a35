import { SaxesParser } from 'saxes';
import { parseDate } from './dates';
import { clip, ImportFileError, ParsedRow } from './parsed-row';

interface EntryDraft {
  line: number;
  amount?: string;
  currency?: string;
  sign?: string;
  date?: string;
  reference?: string;
  status?: string;
  names: string[];
  texts: string[];
}

function rowOf(entry: EntryDraft): ParsedRow | undefined {
  if (entry.status === 'PDNG' || entry.status === 'INFO') return undefined;
  const date = entry.date && parseDate(entry.date);
  if (!date) throw new ImportFileError(entry.line, 'BookgDt', `"${entry.date ?? ''}" is not a date`);
  if (!entry.amount || !/^\d+(\.\d+)?$/.test(entry.amount)) {
    throw new ImportFileError(entry.line, 'Amt', `"${entry.amount ?? ''}" is not an amount`);
  }
  if (entry.sign !== 'CRDT' && entry.sign !== 'DBIT') {
    throw new ImportFileError(entry.line, 'CdtDbtInd', 'must be CRDT or DBIT');
  }
  const amount = entry.amount.replace(/^0+(?=\d)/, '');
  const texts = [...new Set([...entry.names, ...entry.texts])];
  return {
    line: entry.line,
    date,
    amount: entry.sign === 'DBIT' && amount !== '0' ? `-${amount}` : amount,
    currency: entry.currency,
    description: clip(texts.join(' / '), 3000),
    tags: [],
    fitid: entry.reference,
  };
}

/** Where a text lands in the entry being read, by the element's path below `Ntry`. */
function collect(entry: EntryDraft, path: string[], text: string): void {
  const name = path[path.length - 1];
  const parent = path[path.length - 2];
  if (name === 'Amt' && parent === 'Ntry') entry.amount = text;
  else if (name === 'CdtDbtInd' && parent === 'Ntry') entry.sign = text;
  else if ((name === 'Dt' || name === 'DtTm') && parent === 'BookgDt') entry.date = text;
  else if ((name === 'Dt' || name === 'DtTm') && parent === 'ValDt') entry.date ??= text;
  else if (name === 'AcctSvcrRef' && parent === 'Ntry') entry.reference = text;
  else if ((name === 'Sts' && parent === 'Ntry') || (name === 'Cd' && parent === 'Sts')) entry.status = text;
  else if (name === 'Nm' && path.includes('RltdPties')) entry.names.push(text);
  else if (name === 'Ustrd' || (name === 'AddtlNtryInf' && parent === 'Ntry')) entry.texts.push(text);
}

/**
 * Streams the booked entries (`Ntry`) of an ISO 20022 CAMT.053 bank-to-customer statement with saxes
 * (a maintained, streaming, namespace-aware XML parser): signed amounts from Amt and CdtDbtInd, the booking
 * date, the bank's reference (AcctSvcrRef) as the duplicate key, the counterparty and remittance text as
 * the description. Pending entries are skipped.
 */
export async function* parseCamt(chunks: AsyncIterable<string>): AsyncGenerator<ParsedRow> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const path: string[] = [];
  const ready: ParsedRow[] = [];
  let entry: EntryDraft | undefined;
  let text = '';
  let statementCurrency: string | undefined;
  let sawStatement = false;
  parser.on('opentag', (tag) => {
    const name = tag.name.includes(':') ? tag.name.split(':')[1] : tag.name;
    path.push(name);
    text = '';
    if (name === 'Stmt' || name === 'BkToCstmrStmt') sawStatement = true;
    if (name === 'Ntry') entry = { line: parser.line, names: [], texts: [] };
    if (entry && name === 'Amt' && path[path.length - 2] === 'Ntry') {
      entry.currency = (tag.attributes.Ccy as string | undefined) ?? statementCurrency;
    }
  });
  parser.on('text', (value) => (text += value));
  parser.on('closetag', () => {
    const name = path[path.length - 1];
    const value = text.trim();
    if (name === 'Ccy' && path[path.length - 2] === 'Acct') statementCurrency = value;
    if (entry && value) collect(entry, path.slice(path.lastIndexOf('Ntry')), value);
    if (name === 'Ntry' && entry) {
      const row = rowOf(entry);
      if (row) ready.push(row);
      entry = undefined;
    }
    path.pop();
    text = '';
  });
  try {
    for await (const chunk of chunks) {
      parser.write(chunk);
      yield* ready.splice(0);
    }
    parser.close();
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    throw new ImportFileError(parser.line, '(file)', `is not well-formed XML (${(error as Error).message})`);
  }
  yield* ready.splice(0);
  if (!sawStatement) throw new ImportFileError(1, '(file)', 'is not a CAMT.053 statement (no Stmt element)');
}
