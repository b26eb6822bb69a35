import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** One ECB reference rate: units of `currency` per 1 EUR on `date` (YYYY-MM-DD). */
export interface ReferenceRate {
  date: string;
  currency: string;
  /** Exact decimal text as published. */
  rate: string;
}

/** A line of the file that is not in the ECB format; carries the line number for the operator. */
export class RateFileError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'RateFileError';
  }
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const RATE = /^\d+(\.\d+)?$/;
const CURRENCY = /^[A-Z]{3}$/;

function parseHeader(line: string): string[] {
  const [first, ...currencies] = line.split(',').map((cell) => cell.trim());
  if (first !== 'Date') throw new RateFileError(1, 'the header must start with "Date"');
  // The ECB ends every line with a comma, which leaves one empty trailing column.
  while (currencies.length && currencies[currencies.length - 1] === '') currencies.pop();
  currencies.forEach((code) => {
    if (!CURRENCY.test(code)) throw new RateFileError(1, `"${code}" is not a currency code`);
  });
  return currencies;
}

function parseRow(line: string, lineNumber: number, currencies: string[]): ReferenceRate[] {
  const [date, ...cells] = line.split(',').map((cell) => cell.trim());
  if (!DATE.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
    throw new RateFileError(lineNumber, `"${date}" is not a date`);
  }
  const rates: ReferenceRate[] = [];
  currencies.forEach((currency, index) => {
    const cell = cells[index] ?? '';
    if (cell === '' || cell === 'N/A') return;
    if (!RATE.test(cell) || Number(cell) <= 0) {
      throw new RateFileError(lineNumber, `${currency} rate "${cell}" is not a positive decimal`);
    }
    rates.push({ date, currency, rate: cell });
  });
  return rates;
}

/**
 * Streams the ECB `eurofxref-hist.csv` format: a header `Date,USD,JPY,…,` then one line per business day,
 * `N/A` where no rate was published. Yields one day's rates at a time, so a file of any length is read in
 * constant memory. Throws `RateFileError` naming the line on anything malformed.
 */
export async function* parseEcbRates(input: Readable): AsyncGenerator<ReferenceRate[]> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let currencies: string[] | undefined;
  let lineNumber = 0;
  for await (const raw of lines) {
    lineNumber += 1;
    const line = raw.replace(/^\uFEFF/, '');
    if (line.trim() === '') continue;
    if (!currencies) {
      currencies = parseHeader(line);
      continue;
    }
    yield parseRow(line, lineNumber, currencies);
  }
  if (!currencies) throw new RateFileError(1, 'the file is empty');
}
