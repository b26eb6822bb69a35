import { type CustomRate, Decimal } from '@pfs/money';
import type { Actor, EntryFilters } from '@pfs/resource-store';

/**
 * `sum_planned` of `/me/summary`: what planned repeat occurrences (not yet entries) of the period add up
 * to, per side, in the summary currency. The repeats engine provides it (repeat-planned-sums.ts);
 * `noPlannedSums` answers zero (a summary without repeats, and tests of the rest).
 */
export type PlannedSums = (options: {
  actor: Actor;
  from: string;
  to: string;
  currency: string;
  filters: EntryFilters;
  customRates?: CustomRate[];
}) => Promise<{ expenses: Decimal; incomes: Decimal }>;

export const noPlannedSums: PlannedSums = async () => ({ expenses: new Decimal(0), incomes: new Decimal(0) });
