import { isResourceId } from '@pfs/contracts';
import { inputError } from '@pfs/errors';
import { repeatSeriesFilters, type SqlFilter } from '@pfs/resource-store';
import type { Request } from 'express';

/** `GET /entries?repeat=<series id>`: only that series' occurrences (a series of another user matches none). */
export function readRepeatFilter(req: Request): SqlFilter[] {
  return repeatSeriesFilters(readRepeatId(req));
}

export function readRepeatId(req: Request): string | undefined {
  const value = (req.query as Record<string, unknown>).repeat;
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !isResourceId(value))
    throw inputError([{ field: 'repeat', error: 'must be a repeat id' }]);
  return value;
}
