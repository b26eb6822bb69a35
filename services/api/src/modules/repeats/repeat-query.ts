import { parseRepeatRule } from './repeat-body';
import { MAX_COUNT } from './repeat-rule';
import { inputError } from '@pfs/errors';
import { parseEnumParam, type SchemaRegistry } from '@pfs/resource-api';
import type { Request } from 'express';
import { DATE_RULE, isValidDate } from '../../http/date-rule';
import { SERIES_SCOPES, type SeriesCut, type SeriesEdit, type SeriesScope } from './repeat-edit.use-case';

/** `?update=` or `?delete=`: all (default), one or tail. */
export function readSeriesScope(req: Request, name: 'update' | 'delete'): SeriesScope {
  return parseEnumParam(req.query as Record<string, unknown>, name, SERIES_SCOPES) ?? 'all';
}

/** `?delete_after_date=YYYY-MM-DD` or `?delete_after_count=N` (not both). */
export function readSeriesCut(req: Request): SeriesCut | undefined {
  const { delete_after_date: date, delete_after_count: count } = req.query as Record<string, unknown>;
  if (date !== undefined && count !== undefined)
    throw inputError([{ field: 'delete_after_count', error: 'cannot be combined with delete_after_date' }]);
  if (date !== undefined) {
    if (!isValidDate(date)) throw inputError([{ field: 'delete_after_date', error: DATE_RULE }]);
    return { date };
  }
  if (count !== undefined) {
    const n = Number(count);
    // The cut becomes the rule's `count`, so it obeys the rule's bound.
    if (typeof count !== 'string' || !/^\d{1,6}$/.test(count) || n < 1 || n > MAX_COUNT)
      throw inputError([{ field: 'delete_after_count', error: `must be an integer from 1 to ${MAX_COUNT}` }]);
    return { count: n };
  }
  return undefined;
}

/** The series part of an entry update: scope, the body's rule (when it has one) and a cut. */
export function readSeriesEdit(req: Request, mode: 'put' | 'patch', schemas: SchemaRegistry): SeriesEdit {
  const body = req.body as Record<string, unknown> | undefined;
  const repeat = body && typeof body === 'object' && !Array.isArray(body) ? body.repeat : undefined;
  return {
    scope: readSeriesScope(req, 'update'),
    repeat: repeat === null ? undefined : repeat,
    patch: mode === 'patch',
    parseRule: (value) => parseRepeatRule(schemas, value),
    cut: readSeriesCut(req),
  };
}
