import {
  applyRate,
  Decimal,
  findCrossRate,
  formatAmount,
  getCurrency,
  isKnownCurrency,
  isWithinAmountLimit,
  RateSource,
} from '@pfs/money';
import type { Account } from '@pfs/resource-store';
import { createHash } from 'node:crypto';
import { ImportFileError, ParsedRow } from './parsed-row';

/** A parsed row checked against the account: exact amounts in the entry's and the account's currency. */
export interface RowValues {
  row: ParsedRow;
  currency: string;
  rate: string;
  accountAmount: string;
}

/**
 * The rules an entry must meet (the API's for POST /entries), checked while parsing so that a bad row stops
 * the import before anything is written: a known currency, an amount within ±1e15 with no more decimals
 * than its currency has, and a rate to the account's currency (the ECB's on the entry's date).
 */
export function rowValues(row: ParsedRow, account: Account, rates: RateSource | undefined): RowValues {
  const currency = row.currency ?? account.currency;
  if (!isKnownCurrency(currency)) {
    throw new ImportFileError(row.line, 'currency', `"${currency}" is not a known ISO 4217 currency`);
  }
  const amount = new Decimal(row.amount);
  if (!isWithinAmountLimit(amount)) {
    throw new ImportFileError(row.line, 'amount', 'must be between -1e15 and 1e15 (exclusive)');
  }
  const precision = getCurrency(currency).precision;
  if (amount.decimalPlaces() > precision) {
    throw new ImportFileError(row.line, 'amount', `has more than ${precision} decimals for ${currency}`);
  }
  const rate =
    currency === account.currency
      ? new Decimal(1)
      : rates && findCrossRate(rates, currency, account.currency, row.date);
  if (!rate) {
    throw new ImportFileError(
      row.line,
      'currency',
      `has no exchange rate from ${currency} to the account's ${account.currency} on ${row.date}`,
    );
  }
  return {
    row,
    currency,
    rate: formatAmount(rate),
    accountAmount: formatAmount(applyRate(amount, rate, account.currency)),
  };
}

/** Descriptions compare without case, accents' forms, punctuation or spacing differences. */
export function normaliseDescription(text: string | null | undefined): string {
  return (text ?? '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The fingerprint of a transaction without a bank id: date, exact amount, normalised description. */
export function fingerprintOf(date: string, amount: string, description: string | null | undefined): string {
  const text = `${date}|${new Decimal(amount).toFixed()}|${normaliseDescription(description)}`;
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

/**
 * Numbers the rows that share a key within one file (two identical coffees on one day are two rows): the
 * n-th row with a fingerprint gets key `fp:<fingerprint>:<n>`, the n-th with a FITID `fitid:<id>` when n is 0
 * (a repeated FITID within a file is a duplicate). Holds one counter per distinct key.
 */
export class RowKeys {
  private readonly seen = new Map<string, number>();

  keyOf(row: ParsedRow): { key: string; fingerprint?: string; occurrence: number } {
    const base = row.fitid ? `fitid:${row.fitid}` : fingerprintOf(row.date, row.amount, row.description);
    const occurrence = this.seen.get(base) ?? 0;
    this.seen.set(base, occurrence + 1);
    if (row.fitid) return { key: occurrence ? `${base}#${occurrence}` : base, occurrence };
    return { key: `fp:${base}:${occurrence}`, fingerprint: base, occurrence };
  }
}
