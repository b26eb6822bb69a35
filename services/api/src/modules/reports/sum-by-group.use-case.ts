import { inputError } from '@pfs/errors';
import { type CustomRate, Decimal, isKnownCurrency } from '@pfs/money';
import { type EntryFilters, sumEntriesByDay } from '@pfs/resource-store';
import type { LedgerDeps } from '../../ledger-deps';
import { convertDayTotal } from './convert-day-total';
import { addDayTotal } from './sum-entries.use-case';

export interface GroupSum {
  /** The tag or category id; null for entries without a category. */
  group: string | null;
  /** Magnitudes (docs/money.md "Signs"): an expense sum is never negative. */
  expenses: { sum: Decimal; count: number };
  incomes: { sum: Decimal; count: number };
  /** The latest modified of the entries the group adds up. */
  modified: Date;
}

/**
 * Expense and income sums per tag or per category in `currency`, by the rule of `/entries/sums`: entries add
 * exactly per day and currency, each total converts with that day's rate (the user's custom rate for its
 * pair when set), and those add up. An entry with several tags counts toward each; transfers are left out.
 * Largest first (expenses and incomes by size together), then by id.
 */
export async function sumEntriesByGroup(
  deps: LedgerDeps,
  userId: string,
  options: {
    filters: EntryFilters;
    currency: string;
    groupBy: 'tag' | 'category';
    customRates?: CustomRate[];
  },
): Promise<GroupSum[]> {
  if (!isKnownCurrency(options.currency))
    throw inputError([{ field: 'currency', error: 'must be a known ISO 4217 currency code' }]);
  const groups = new Map<string | null, GroupSum>();
  for (const total of await sumEntriesByDay(deps.dataSource, userId, options.filters, options.groupBy)) {
    const converted = convertDayTotal(deps.rates, options.customRates, {
      amount: total.total,
      from: total.currency,
      to: options.currency,
      date: total.date,
    });
    const key = total.group ?? null;
    const group = groups.get(key) ?? {
      group: key,
      expenses: { sum: new Decimal(0), count: 0 },
      incomes: { sum: new Decimal(0), count: 0 },
      modified: total.modified,
    };
    addDayTotal(group, total, converted);
    groups.set(key, group);
  }
  const size = (group: GroupSum) => group.expenses.sum.plus(group.incomes.sum);
  return [...groups.values()].sort(
    (a, b) => size(b).comparedTo(size(a)) || String(a.group ?? '').localeCompare(String(b.group ?? '')),
  );
}
