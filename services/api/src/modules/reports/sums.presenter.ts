import { amountToJson } from '@pfs/money';
import { formatModified } from '@pfs/resource-api';
import type { SumsRow } from './sum-entries.use-case';

/**
 * The figures of a sums row (`/entries/sums`, `/tags/sums`, `/categories/sums`), as the reference's sums
 * item has them: `{expenses: {sum, count}, incomes: {sum, count}, modified}`; sums are magnitudes
 * (docs/money.md "Signs") and `modified` is the latest of the entries the row adds up.
 */
export function presentSumsRow(row: SumsRow): Record<string, unknown> {
  return {
    expenses: { sum: amountToJson(row.expenses.sum), count: row.expenses.count },
    incomes: { sum: amountToJson(row.incomes.sum), count: row.incomes.count },
    modified: formatModified(row.modified),
  };
}
