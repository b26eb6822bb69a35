import { isResourceId } from '@pfs/contracts';
import { inputError } from '@pfs/errors';
import type { SqlFilter } from '@pfs/resource-store';
import type { Request } from 'express';

/** `GET /entries?repeat=<series id>`: only that series' occurrences (a series of another user matches none). */
export function readRepeatFilter(req: Request): SqlFilter[] {
  const id = readRepeatId(req);
  return id ? [(p) => `t.repeat_id = ${p(id)}`] : [];
}

export function readRepeatId(req: Request): string | undefined {
  const value = (req.query as Record<string, unknown>).repeat;
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !isResourceId(value))
    throw inputError([{ field: 'repeat', error: 'must be a repeat id' }]);
  return value;
}
