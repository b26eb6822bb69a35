import { type FieldError, inputError } from '@pfs/errors';
import { Decimal, isKnownCurrency, isWithinAmountLimit, parseAmount } from '@pfs/money';
import type { Amount } from '@pfs/resource-api';
import { type Entry, entriesTable, type EntryLocation, type EntryReminder } from '@pfs/resource-store';
import { DATE_RULE, isValidDate } from '../../http/date-rule';
import type { EntryBody } from './entry-body.schema';

/** A validated entry write, before it is resolved against the user's accounts and rates. */
export interface EntryDraft {
  amount: Decimal;
  currency: { code: string; rate?: Decimal; fixed: boolean };
  date: string;
  desc?: string;
  account: string;
  category?: string;
  tags: string[];
  location?: EntryLocation;
  reminders?: EntryReminder[];
  completed: boolean;
  /** Ids of attached images (the user's live images, checked by the writer). */
  images: string[];
  extra?: Record<string, unknown>;
  /** A transfer: the companion entry goes to `account`. */
  transaction?: {
    account: string;
    amount?: Decimal;
    currency?: { code: string; rate?: Decimal; fixed?: boolean };
  };
}

type Fail = (field: string, error: string) => void;
type CurrencyBody = EntryBody['currency'] | NonNullable<EntryBody['transaction']>['currency'];

/** A rate of 0 is an existing client's placeholder for "none": the server picks the rate. */
const isRateGiven = (rate: Amount | undefined): rate is Amount =>
  rate !== undefined && rate !== 0 && rate !== '0';
const PERIODS = ['day', 'week', 'month', 'year'];

/**
 * The rules of an entry the published schema cannot say (it has already checked types, ids, lengths, enums):
 * a known currency, a rate in range, a date in the service's range, and the same of a transfer's other side.
 * One 400 naming every broken rule under `prefix` (`3.` for the fourth item of a batch).
 */
export function assertEntryRules(body: EntryBody, prefix = ''): void {
  const errors: FieldError[] = [];
  const fail: Fail = (field, error) => errors.push({ field: `${prefix}${field}`, error });
  assertCurrencyRules(body.currency, 'currency', fail);
  if (!isValidDate(body.date)) fail('date', DATE_RULE);
  if (body.transaction?.currency)
    assertCurrencyRules(body.transaction.currency, 'transaction.currency', fail);
  if (errors.length) throw inputError(errors);
}

/** The transfer of an update body, checked on its own (the merged state leaves it out). */
export function assertTransactionRules(transaction: NonNullable<EntryBody['transaction']>): void {
  const errors: FieldError[] = [];
  if (transaction.currency)
    assertCurrencyRules(transaction.currency, 'transaction.currency', (field, error) =>
      errors.push({ field, error }),
    );
  if (errors.length) throw inputError(errors);
}

function assertCurrencyRules(currency: CurrencyBody, field: string, fail: Fail): void {
  if (!currency) return;
  if (!isKnownCurrency(currency.code)) return fail(`${field}.code`, 'must be a known ISO 4217 currency code');
  if (!isRateGiven(currency.rate)) return;
  const rate = parseAmount(currency.rate);
  if (!rate) fail(`${field}.rate`, 'must be a number');
  else if (!isWithinAmountLimit(rate)) fail(`${field}.rate`, 'must be between -1e15 and 1e15 (exclusive)');
  else if (!rate.greaterThan(0)) fail(`${field}.rate`, 'must be greater than 0');
}

const decimal = (value: Amount) => parseAmount(value)!;

/**
 * The draft of a checked body: exact decimals, the rate placeholder dropped, tags and images without repeats,
 * reminders in the reference's order (period, then number), an empty text as none.
 */
export function entryDraftOf(body: EntryBody): EntryDraft {
  return {
    amount: decimal(body.amount),
    currency: {
      code: body.currency.code,
      rate: isRateGiven(body.currency.rate) ? decimal(body.currency.rate) : undefined,
      fixed: body.currency.fixed === true,
    },
    date: body.date,
    desc: body.desc === '' ? undefined : body.desc,
    account: body.account,
    category: body.category,
    tags: [...new Set(body.tags ?? [])],
    location: body.location && locationOf(body.location),
    reminders: body.reminders && sortedReminders(body.reminders),
    completed: body.completed === true,
    images: [...new Set((body.images ?? []).map((image) => image.id))],
    extra: body.extra,
    transaction: body.transaction && transactionDraftOf(body.transaction),
  };
}

function locationOf(location: NonNullable<EntryBody['location']>): EntryLocation {
  const out: EntryLocation = { latitude: Number(location.latitude), longitude: Number(location.longitude) };
  if (location.id !== undefined) out.id = location.id;
  if (location.venue_id !== undefined) out.venue_id = location.venue_id;
  return out;
}

function sortedReminders(reminders: NonNullable<EntryBody['reminders']>): EntryReminder[] {
  return reminders
    .map(({ period, number, at }) => ({ period, number, at }))
    .sort((a, b) => PERIODS.indexOf(a.period) - PERIODS.indexOf(b.period) || a.number - b.number);
}

/** A transfer's other side; an amount of 0 is a placeholder for "the opposite of the entry". */
export function transactionDraftOf(
  transaction: NonNullable<EntryBody['transaction']>,
): NonNullable<EntryDraft['transaction']> {
  const currency = transaction.currency;
  return {
    account: transaction.account,
    amount:
      transaction.amount !== undefined && transaction.amount !== 0 ? decimal(transaction.amount) : undefined,
    currency: currency && {
      code: currency.code,
      rate: isRateGiven(currency.rate) ? decimal(currency.rate) : undefined,
      fixed: currency.fixed === true,
    },
  };
}

/**
 * A stored entry as a draft, for rewriting it (merge, manage). Its transfer link is kept by the caller. A stored
 * state was checked when it was written, so it is read as the body it was.
 */
export function draftOfEntry(entry: Entry): EntryDraft {
  const { transaction: _link, ...state } = entriesTable.options.toSnapshot(entry);
  return entryDraftOf(state as unknown as EntryBody);
}
