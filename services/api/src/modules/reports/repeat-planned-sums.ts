import { Decimal } from '@pfs/money';
import type { ApiDependencies } from '../../dependencies';
import { ledgerDepsOf } from '../../ledger-deps';
import { matchesFilters, plannedOccurrences } from '../repeats/planned-occurrences';
import type { PlannedSums } from './planned-sums.hook';
import { convertDayTotal } from './convert-day-total';

/**
 * `sum_planned` from the repeats engine: the planned occurrences of the period (not yet entries) that the
 * summary's filters keep, transfers left out as in every sum. Same rule as `/entries/sums`: per day and
 * currency the amounts add exactly, each total converts with that day's rate (the user's custom rate for
 * its pair when set), and those add up.
 */
export function repeatPlannedSums(deps: ApiDependencies): PlannedSums {
  const ledger = ledgerDepsOf(deps);
  return async ({ actor, from, to, currency, filters, customRates }) => {
    const totals = new Map<string, Decimal>();
    for (const item of await plannedOccurrences(ledger, actor, { from, to })) {
      if (item.transferTo || item.amount.isZero() || !matchesFilters(item, filters)) continue;
      const key = `${item.amount.isNegative() ? 'e' : 'i'} ${item.date} ${item.currency}`;
      totals.set(key, (totals.get(key) ?? new Decimal(0)).plus(item.amount));
    }
    const sums = { expenses: new Decimal(0), incomes: new Decimal(0) };
    for (const [key, amount] of totals) {
      const [side, date, from] = key.split(' ');
      const converted = convertDayTotal(deps.rates, customRates, { amount, from, to: currency, date });
      // Expenses as a magnitude, like every sum (docs/money.md "Signs").
      if (side === 'e') sums.expenses = sums.expenses.minus(converted);
      else sums.incomes = sums.incomes.plus(converted);
    }
    return sums;
  };
}
