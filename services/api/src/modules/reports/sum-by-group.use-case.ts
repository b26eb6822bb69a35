import { inputError } from '@pfs/errors';
import { type CustomRate, isKnownCurrency } from '@pfs/money';
import { type Actor, type EntryFilters, sumEntriesByDay } from '@pfs/resource-store';
import type { LedgerDeps } from '../../ledger-deps';
import { addUpDayTotals, emptySums, type SumsRow } from './sum-entries.use-case';

export interface GroupSum extends SumsRow {
  /** The tag or category id; null for entries without a category. */
  group: string | null;
}

/**
 * Expense and income sums per tag or per category in `currency`, by the rule of `/entries/sums`: entries add
 * exactly per day and currency, each total converts with that day's rate (the user's custom rate for its
 * pair when set), and those add up. An entry with several tags counts toward each; transfers are left out.
 * Largest first (expenses and incomes by size together), then by id.
 */
export async function sumEntriesByGroup(
  deps: LedgerDeps,
  actor: Actor,
  options: {
    filters: EntryFilters;
    currency: string;
    groupBy: 'tag' | 'category';
    customRates?: CustomRate[];
  },
): Promise<GroupSum[]> {
  if (!isKnownCurrency(options.currency))
    throw inputError([{ field: 'currency', error: 'must be a known ISO 4217 currency code' }]);
  const totals = await sumEntriesByDay(deps.store.read(actor), options.filters, options.groupBy);
  const groups = addUpDayTotals(
    deps,
    totals,
    options,
    (total) => total.group ?? null,
    (group, total): GroupSum => ({ group, ...emptySums(total.modified) }),
  );
  const size = (group: GroupSum) => group.expenses.sum.plus(group.incomes.sum);
  return groups.sort(
    (a, b) => size(b).comparedTo(size(a)) || String(a.group ?? '').localeCompare(String(b.group ?? '')),
  );
}
