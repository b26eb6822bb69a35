import { inputError } from '@pfs/errors';
import { isResourceId } from '@pfs/contracts';
import { parseBooleanParam, parseListParam, parseSearchParam } from '@pfs/resource-api';
import type { BudgetListFilters } from '@pfs/resource-store';
import type { Request } from 'express';
import { DATE_RULE, isValidDate } from '../../http/date-rule';
import { todayUtc } from './budget-views.use-case';

/* What the budget operations read from a request's query: dates, ranges and list filters. */

function readDate(query: Record<string, unknown>, name: string, required: boolean): string | undefined {
  const value = query[name];
  if (value === undefined && !required) return undefined;
  if (value === undefined) throw inputError([{ field: name, error: 'is required' }]);
  if (!isValidDate(value)) throw inputError([{ field: name, error: DATE_RULE }]);
  return value as string;
}

export function readRange(query: Record<string, unknown>, fromRequired: boolean) {
  const from = readDate(query, 'from', fromRequired);
  const to = readDate(query, 'to', true)!;
  if (from && to < from) throw inputError([{ field: 'to', error: 'must not be before from' }]);
  return { from, to };
}

/**
 * The list range. Half the clients in use list budgets with `to` only or with no dates (docs/budgets.md):
 * a missing date defaults to the other one, and with neither the range is today (UTC, as for one budget),
 * so each budget comes at the iteration holding that day.
 */
function readListRange(query: Record<string, unknown>): { from: string; to: string } {
  const given = { from: readDate(query, 'from', false), to: readDate(query, 'to', false) };
  const from = given.from ?? given.to ?? todayUtc();
  const to = given.to ?? from;
  if (to < from) throw inputError([{ field: 'to', error: 'must not be before from' }]);
  return { from, to };
}

export function readListFilters(req: Request): BudgetListFilters {
  const query = req.query as Record<string, unknown>;
  const { from, to } = readListRange(query);
  return {
    from,
    to,
    categories: parseListParam(query, 'categories', isResourceId),
    tags: parseListParam(query, 'tags', isResourceId),
    accounts: parseListParam(query, 'accounts', isResourceId),
    search: parseSearchParam(query, 300),
    hasProblem: parseBooleanParam(query, 'has_problem'),
  };
}
