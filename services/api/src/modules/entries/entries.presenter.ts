import { amountToJson, type Decimal } from '@pfs/money';
import { compact, formatModified, formatTimestamp } from '@pfs/resource-api';
import type { Entry } from '@pfs/resource-store';

/**
 * The `/entries` representation. `companion` is the other side of a transfer, when there is one;
 * `mainRate` converts the entry's currency to the user's current main currency on the entry's date;
 * `images` are the entry's live images, already presented (`[{id, path, filename, type, status}]`).
 * `repeat` is the series of an occurrence (repeat.presenter.ts).
 */
export function presentEntry(
  entry: Entry,
  companion?: Entry,
  mainRate?: Decimal,
  images?: Array<Record<string, unknown>>,
  repeat?: Record<string, unknown>,
): Record<string, unknown> {
  return compact({
    id: entry.id,
    amount: amountToJson(entry.amount),
    currency: {
      code: entry.currency,
      rate: amountToJson(entry.rate),
      main_rate: mainRate ? amountToJson(mainRate) : undefined,
      fixed: entry.fixed,
    },
    date: entry.date,
    desc: entry.description,
    account: entry.accountId,
    category: entry.categoryId,
    tags: entry.tagIds,
    location: entry.location,
    reminders: entry.reminders,
    images,
    completed: entry.completed,
    repeat,
    transaction:
      entry.transactionId === null
        ? undefined
        : {
            id: entry.transactionId,
            account: companion?.accountId,
            amount: companion ? amountToJson(companion.amount) : undefined,
            currency: companion
              ? { code: companion.currency, rate: amountToJson(companion.rate) }
              : undefined,
          },
    created: formatTimestamp(entry.createdAt),
    modified: formatModified(entry.modifiedAt),
    deleted: entry.deleted || undefined,
    extra: entry.extra,
  });
}
