import { isResourceId } from '@pfs/contracts';
import { FieldError, inputError } from '@pfs/errors';
import { Decimal, isKnownCurrency, isWithinAmountLimit, parseAmount } from '@pfs/money';
import { type Entry, entriesTable, type EntryLocation, type EntryReminder } from '@pfs/resource-store';
import { DATE_RULE, isValidDate } from '../../http/date-rule';

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
  transaction?: { account: string; amount?: Decimal; currency?: { code: string; rate?: Decimal } };
}

export const MAX_DESC_LENGTH = 3072;
const MAX_TAGS = 100;
const MAX_REMINDERS = 5;
export const MAX_IMAGES = 4;
const TIME = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;
const PERIODS = ['day', 'week', 'month', 'year'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Collects field errors so one 400 names every problem of the body. */
class DraftReader {
  readonly errors: FieldError[] = [];
  constructor(private readonly prefix: string) {}

  fail(field: string, error: string): undefined {
    this.errors.push({ field: `${this.prefix}${field}`, error });
    return undefined;
  }

  amount(field: string, value: unknown, options: { positive?: boolean } = {}): Decimal | undefined {
    const amount = parseAmount(value);
    if (!amount) return this.fail(field, 'must be a number');
    if (!isWithinAmountLimit(amount)) return this.fail(field, 'must be between -1e15 and 1e15 (exclusive)');
    if (options.positive && !amount.greaterThan(0)) return this.fail(field, 'must be greater than 0');
    return amount;
  }

  id(field: string, value: unknown): string | undefined {
    return isResourceId(value) ? value : this.fail(field, 'must be an id string');
  }

  currency(field: string, value: unknown): { code: string; rate?: Decimal; fixed: boolean } | undefined {
    if (!isObject(value)) return this.fail(field, 'must be an object with code');
    if (typeof value.code !== 'string' || !isKnownCurrency(value.code)) {
      return this.fail(`${field}.code`, 'must be a known ISO 4217 currency code');
    }
    // A rate of 0 is an existing client's placeholder for "none": the server picks the rate.
    const hasRate = value.rate !== undefined && value.rate !== null && value.rate !== 0 && value.rate !== '0';
    const rate = hasRate ? this.amount(`${field}.rate`, value.rate, { positive: true }) : undefined;
    return { code: value.code, rate, fixed: value.fixed === true || value.fixed === 'true' };
  }
}

function readLocation(reader: DraftReader, value: unknown): EntryLocation | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) return reader.fail('location', 'must be an object');
  const { latitude, longitude } = value;
  if (typeof latitude !== 'number' || latitude < -90 || latitude > 90) {
    return reader.fail('location.latitude', 'must be a number from -90 to 90');
  }
  if (typeof longitude !== 'number' || longitude < -180 || longitude > 180) {
    return reader.fail('location.longitude', 'must be a number from -180 to 180');
  }
  const location: EntryLocation = { latitude, longitude };
  if (value.id !== undefined) location.id = reader.id('location.id', value.id);
  if (typeof value.venue_id === 'string') location.venue_id = value.venue_id.slice(0, 255);
  return location;
}

function readReminders(reader: DraftReader, value: unknown): EntryReminder[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length > MAX_REMINDERS) {
    return reader.fail('reminders', `must be an array of at most ${MAX_REMINDERS}`);
  }
  const reminders: EntryReminder[] = [];
  value.forEach((item, index) => {
    const ok =
      isObject(item) &&
      PERIODS.includes(item.period as string) &&
      Number.isInteger(item.number) &&
      (item.number as number) >= 0 &&
      (item.number as number) <= 255 &&
      typeof item.at === 'string' &&
      TIME.test(item.at);
    if (!ok)
      reader.fail(`reminders.${index}`, 'must be {period: day|week|month|year, number: 0–255, at: HH:mm:ss}');
    else
      reminders.push({
        period: item.period as EntryReminder['period'],
        number: item.number as number,
        at: item.at as string,
      });
  });
  // The reference keeps reminders sorted by period, then number.
  return reminders.sort(
    (a, b) => PERIODS.indexOf(a.period) - PERIODS.indexOf(b.period) || a.number - b.number,
  );
}

/** `images: [{id}]`, at most MAX_IMAGES (a repeated id counts once). */
function readImages(reader: DraftReader, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_IMAGES) {
    reader.fail('images', `must be an array of at most ${MAX_IMAGES} images ({id})`);
    return [];
  }
  const ids: string[] = [];
  value.forEach((item, index) => {
    const id = reader.id(`images.${index}.id`, isObject(item) ? item.id : undefined);
    if (id) ids.push(id);
  });
  return [...new Set(ids)];
}

function readTransaction(reader: DraftReader, value: unknown): EntryDraft['transaction'] {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) return reader.fail('transaction', 'must be an object with account');
  const account = reader.id('transaction.account', value.account);
  const hasAmount = value.amount !== undefined && value.amount !== null && value.amount !== 0;
  const amount = hasAmount ? reader.amount('transaction.amount', value.amount) : undefined;
  const currency =
    value.currency !== undefined ? reader.currency('transaction.currency', value.currency) : undefined;
  return account ? { account, amount, currency } : undefined;
}

/**
 * Reads an entry body (already stripped of read-only fields by the layer) into a draft, or throws one 400
 * naming every bad field. `prefix` names the item of a batch (`3.amount`).
 */
export function readEntryDraft(body: unknown, prefix = ''): EntryDraft {
  const reader = new DraftReader(prefix);
  if (!isObject(body)) throw inputError([{ field: prefix || '(body)', error: 'must be a JSON object' }]);
  const amount = reader.amount('amount', body.amount);
  const currency = reader.currency('currency', body.currency);
  const date = isValidDate(body.date) ? body.date : reader.fail('date', DATE_RULE);
  const account = reader.id('account', body.account);
  const category = body.category === undefined ? undefined : reader.id('category', body.category);
  let desc: string | undefined;
  if (body.desc !== undefined && body.desc !== '') {
    if (typeof body.desc !== 'string' || body.desc.length > MAX_DESC_LENGTH) {
      reader.fail('desc', `must be a string of at most ${MAX_DESC_LENGTH} characters`);
    } else desc = body.desc;
  }
  const tags: string[] = [];
  if (body.tags !== undefined) {
    if (!Array.isArray(body.tags) || body.tags.length > MAX_TAGS)
      reader.fail('tags', `must be an array of at most ${MAX_TAGS} ids`);
    else body.tags.forEach((tag, index) => reader.id(`tags.${index}`, tag) && tags.push(tag as string));
  }
  if (body.completed !== undefined && typeof body.completed !== 'boolean')
    reader.fail('completed', 'must be a boolean');
  if (body.extra !== undefined && !isObject(body.extra)) reader.fail('extra', 'must be an object');
  const draft = {
    amount,
    currency,
    date,
    desc,
    account,
    category,
    tags: [...new Set(tags)],
    location: readLocation(reader, body.location),
    reminders: readReminders(reader, body.reminders),
    completed: body.completed === true,
    images: readImages(reader, body.images),
    extra: body.extra as Record<string, unknown> | undefined,
    transaction: readTransaction(reader, body.transaction),
  };
  if (reader.errors.length) throw inputError(reader.errors);
  return draft as EntryDraft;
}

/** A stored entry as a draft, for rewriting it (merge, manage). Its transfer link is kept by the caller. */
export function draftOfEntry(entry: Entry): EntryDraft {
  const { transaction: _link, ...state } = entriesTable.options.toSnapshot(entry);
  return readEntryDraft(state);
}
