import type { ImportOptions } from '@pfs/contracts';
import { parseLocaleAmount } from '@pfs/money';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { parseDate } from './dates';
import { clip, ImportFileError, ParsedRow } from './parsed-row';

/** The account types whose records are transactions (investment and list sections are skipped). */
const TRANSACTION_TYPES = /^!Type:(Bank|Cash|CCard|Oth A|Oth L)\s*$/i;

/** QIF's own date forms when no format is given: ISO, else US month/day/year (`12/31/2025`, `12/31'25`). */
function qifDate(text: string, format: string | undefined): string | undefined {
  if (format) return parseDate(text, format);
  return parseDate(text) ?? parseDate(text, /\d{4}\s*$/.test(text) ? 'M/D/YYYY' : 'M/D/YY');
}

interface Draft {
  line: number;
  fields: Map<string, string>;
}

/**
 * Streams the transactions of a QIF file line by line (readline over the decoded text: flat memory). No npm
 * QIF parser streams (qif2json reads the whole file), and the format is one field per line, so it is read
 * here: D date, T/U amount, P payee, M memo, L category (`[Account]` is a transfer: no category; `Cat/Class`
 * gives the class as a tag), N number; `^` ends a record.
 */
export async function* parseQif(
  chunks: AsyncIterable<string>,
  options: ImportOptions,
): AsyncGenerator<ParsedRow> {
  const lines = createInterface({ input: Readable.from(chunks), crlfDelay: Infinity });
  const locale = { decimalSeparator: options.decimalSeparator ?? '.' };
  let number = 0;
  let inTransactions = false;
  let sawHeader = false;
  let draft: Draft | undefined;
  for await (const raw of lines) {
    number += 1;
    const text = raw.replace(/^\uFEFF/, '').trimEnd();
    if (!text) continue;
    if (text.startsWith('!')) {
      sawHeader = true;
      if (/^!Type:/i.test(text)) inTransactions = TRANSACTION_TYPES.test(text);
      continue;
    }
    if (!sawHeader) throw new ImportFileError(number, '(file)', 'is not QIF (it must start with !Type:)');
    if (!inTransactions) continue;
    if (text === '^') {
      if (draft) yield rowOf(draft, options.dateFormat, locale);
      draft = undefined;
      continue;
    }
    draft ??= { line: number, fields: new Map() };
    const code = text[0];
    // Split transactions (S, E, $) add detail lines; the record's total (T) is what moves the account.
    if (!draft.fields.has(code)) draft.fields.set(code, text.slice(1).trim());
  }
  if (draft) yield rowOf(draft, options.dateFormat, locale);
}

function rowOf(
  draft: Draft,
  dateFormat: string | undefined,
  locale: { decimalSeparator: '.' | ',' },
): ParsedRow {
  const { fields, line } = draft;
  const dateText = fields.get('D') ?? '';
  const date = qifDate(dateText, dateFormat);
  if (!date) throw new ImportFileError(line, 'D', `"${dateText}" is not a date (set date_format)`);
  const amountText = fields.get('T') ?? fields.get('U');
  if (!amountText) throw new ImportFileError(line, 'T', 'is missing (the amount)');
  const amount = parseLocaleAmount(amountText, locale);
  if (!amount) throw new ImportFileError(line, 'T', `"${amountText}" is not an amount`);
  const payee = fields.get('P');
  const memo = fields.get('M');
  const [category, label] = (fields.get('L') ?? '').split('/', 2);
  const isTransfer = /^\[.*\]$/.test(category ?? '');
  return {
    line,
    date,
    amount: amount.toFixed(),
    description: clip([payee, memo && memo !== payee ? memo : undefined].filter(Boolean).join(' / '), 3000),
    category: isTransfer ? undefined : clip(category, 100),
    tags: label ? [clip(label, 100)!].filter(Boolean) : [],
  };
}
