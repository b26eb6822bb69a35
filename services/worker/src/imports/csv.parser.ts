import type { ImportFormat, ImportMappingField, ImportOptions } from '@pfs/contracts';
import { parseLocaleAmount } from '@pfs/money';
import { parse } from 'csv-parse';
import { Readable } from 'node:stream';
import { parseDate } from './dates';
import { clip, clipText, ImportFileError, ParsedRow } from './parsed-row';

type Mapping = Partial<Record<ImportMappingField, string>>;

/** The columns of the PFS export (docs/exports.md) and of Toshl's CSV export. */
const PRESETS: Partial<Record<ImportFormat, { mapping: Mapping; tagSeparator: string }>> = {
  pfs_csv: {
    mapping: {
      date: 'Date',
      amount: 'Amount',
      category: 'Category',
      tags: 'Tags',
      currency: 'Currency',
      description: 'Description',
    },
    tagSeparator: ', ',
  },
  toshl_csv: {
    mapping: {
      date: 'Date',
      debit: 'Expense amount',
      credit: 'Income amount',
      category: 'Category',
      tags: 'Tags',
      currency: 'Currency',
      description: 'Description',
    },
    tagSeparator: ',',
  },
};

/** Header names that say what a column holds when the client gave no mapping (checked in order). */
const GUESSES: Array<[ImportMappingField, RegExp]> = [
  ['date', /^(booking |transaction |value )?date$|^datum$|^fecha$|^buchungstag$/i],
  ['amount', /^amount$|^betrag$|^montant$|^importe$|^sum$|^value$/i],
  ['debit', /^(debit|withdrawal|money out|paid out|expense amount)s?$/i],
  ['credit', /^(credit|deposit|money in|paid in|income amount)s?$/i],
  ['description', /^(description|memo|payee|details|narrative|text|name|verwendungszweck)$/i],
  ['category', /^category$/i],
  ['tags', /^tags?$/i],
  ['currency', /^currency$/i],
];

function guessMapping(header: string[]): Mapping {
  const mapping: Mapping = {};
  for (const [field, pattern] of GUESSES) {
    const found = header.find((cell) => pattern.test(cell.trim()));
    if (found && !Object.values(mapping).includes(found)) mapping[field] = found;
  }
  return mapping;
}

/** Column indexes of the mapping's fields in `header` (a number is a 1-based column). */
function resolveColumns(mapping: Mapping, header: string[]): Partial<Record<ImportMappingField, number>> {
  const lower = header.map((cell) => cell.trim().toLowerCase());
  const columns: Partial<Record<ImportMappingField, number>> = {};
  for (const [field, name] of Object.entries(mapping) as Array<[ImportMappingField, string]>) {
    const index = /^\d+$/.test(name) ? Number(name) - 1 : lower.indexOf(name.trim().toLowerCase());
    if (index < 0 || index >= header.length) {
      throw new ImportFileError(
        1,
        `mapping.${field}`,
        `names column "${name}", which the file does not have`,
      );
    }
    columns[field] = index;
  }
  if (columns.date === undefined || (columns.amount ?? columns.debit ?? columns.credit) === undefined) {
    throw new ImportFileError(
      1,
      'mapping',
      'is needed: no column looks like the date and the amount; name them (mapping.date, mapping.amount)',
    );
  }
  return columns;
}

/** The export's guard against spreadsheet formulas (a leading `'`) is taken off again. */
const unguard = (text: string) => (/^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text);

/**
 * Streams the rows of a CSV statement with csv-parse (maintained, streaming, reports each record's line).
 * The first record is the header. Amounts are read exactly in the file's locale, dates in `dateFormat`.
 */
export async function* parseCsv(
  chunks: AsyncIterable<string>,
  format: ImportFormat,
  options: ImportOptions & { delimiter: string },
): AsyncGenerator<ParsedRow> {
  const preset = PRESETS[format];
  const tagSeparator = options.tagSeparator ?? preset?.tagSeparator ?? ',';
  const locale = { decimalSeparator: options.decimalSeparator ?? '.' };
  const records = Readable.from(chunks).pipe(
    parse({
      delimiter: options.delimiter,
      info: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
    }),
  );
  let columns: Partial<Record<ImportMappingField, number>> | undefined;
  // csv-parse counts the line a record ends on; a record (quoted line breaks) starts after the previous one.
  let ended = { lines: 0, empty: 0 };
  try {
    for await (const { record, info } of records as AsyncIterable<{
      record: string[];
      info: { lines: number; empty_lines: number };
    }>) {
      const line = ended.lines + 1 + (info.empty_lines - ended.empty);
      ended = { lines: info.lines, empty: info.empty_lines };
      if (!columns) {
        columns = resolveColumns(options.mapping ?? preset?.mapping ?? guessMapping(record), record);
        continue;
      }
      const cell = (field: ImportMappingField) =>
        columns![field] === undefined ? undefined : (record[columns![field]!] ?? '').trim();
      yield rowOf(line, cell, { dateFormat: options.dateFormat, locale, tagSeparator, format });
    }
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    const lines = (error as { lines?: number }).lines;
    throw new ImportFileError(lines, undefined, `is not readable CSV (${(error as Error).message})`);
  }
  if (!columns) throw new ImportFileError(1, '(file)', 'has no header row');
}

function rowOf(
  line: number,
  cell: (field: ImportMappingField) => string | undefined,
  rules: {
    dateFormat?: string;
    locale: { decimalSeparator: '.' | ',' };
    tagSeparator: string;
    format: ImportFormat;
  },
): ParsedRow {
  const dateText = cell('date') ?? '';
  const date = parseDate(dateText, rules.dateFormat);
  if (!date) {
    throw new ImportFileError(
      line,
      'date',
      `"${dateText}" is not a date in the format ${rules.dateFormat ?? 'YYYY-MM-DD'} (set date_format)`,
    );
  }
  const amount = amountOf(line, cell, rules.locale);
  const description = cell('description');
  const currency = cell('currency')?.toUpperCase();
  if (currency && !/^[A-Z]{3}$/.test(currency)) {
    throw new ImportFileError(line, 'currency', `"${currency}" is not an ISO 4217 code`);
  }
  return {
    line,
    date,
    amount,
    currency: currency || undefined,
    description: clipText(
      description && rules.format === 'pfs_csv' ? unguard(description) : description,
      3000,
    ),
    category: clip(cell('category'), 100),
    tags: (cell('tags') ?? '')
      .split(rules.tagSeparator)
      .map((tag) => clip(tag, 100))
      .filter((tag): tag is string => tag !== undefined),
  };
}

/** One signed amount, or debit (money out) and credit (money in) columns of which one is filled. */
function amountOf(
  line: number,
  cell: (field: ImportMappingField) => string | undefined,
  locale: { decimalSeparator: '.' | ',' },
): string {
  const read = (field: 'amount' | 'debit' | 'credit') => {
    const text = cell(field);
    if (!text) return undefined;
    const value = parseLocaleAmount(text, locale);
    if (!value) {
      throw new ImportFileError(
        line,
        field,
        `"${text}" is not an amount with "${locale.decimalSeparator}" as decimal separator`,
      );
    }
    return value;
  };
  const amount = read('amount');
  if (amount) return amount.toFixed();
  const debit = read('debit');
  const credit = read('credit');
  if (!debit && !credit) throw new ImportFileError(line, 'amount', 'is empty');
  return (credit?.abs() ?? debit!.abs().negated()).minus(credit && debit ? debit.abs() : 0).toFixed();
}
