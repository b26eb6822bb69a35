import { isResourceId } from '@pfs/contracts';
import { inputError } from '@pfs/errors';
import { parseEnumParam, parseListParam, parseSearchParam } from '@pfs/resource-api';
import type { EntryFilters, IdFilter } from '@pfs/resource-store';
import type { Request } from 'express';
import { DATE_RULE, isValidDate } from './date-rule';

const TYPES = ['expense', 'income', 'transaction'] as const;

function idFilters(query: Record<string, unknown>, name: string): IdFilter[] | undefined {
  const filters: IdFilter[] = [];
  for (const [key, negate] of [
    [name, false],
    [`!${name}`, true],
  ] as const) {
    const ids = parseListParam(query, key, isResourceId);
    if (ids) filters.push({ ids, negate });
  }
  return filters.length ? filters : undefined;
}

/** Reads `/entries` (and `/entries/sums`) filters; a bad value is a 400 naming the parameter. */
export function readEntryFilters(req: Request, options: { requireRange?: boolean } = {}): EntryFilters {
  const query = req.query as Record<string, unknown>;
  for (const name of ['from', 'to'] as const) {
    if (query[name] !== undefined && !isValidDate(query[name]))
      throw inputError([{ field: name, error: DATE_RULE }]);
    if (options.requireRange && query[name] === undefined)
      throw inputError([{ field: name, error: 'is required' }]);
  }
  if (query.from && query.to && (query.to as string) < (query.from as string)) {
    throw inputError([{ field: 'to', error: 'must not be before from' }]);
  }
  const type = parseEnumParam(query, 'type', TYPES);
  const search = parseSearchParam(query, 255);
  return {
    from: query.from as string | undefined,
    to: query.to as string | undefined,
    type,
    accounts: idFilters(query, 'accounts'),
    categories: idFilters(query, 'categories'),
    tags: idFilters(query, 'tags'),
    locations: idFilters(query, 'locations'),
    search,
    ids: parseListParam(query, 'ids', isResourceId),
  };
}

/** True when no filter narrows the list (every value undefined). */
export function isUnfiltered(filters: EntryFilters): boolean {
  return Object.values(filters).every((value) => value === undefined);
}
