import { inputError } from '@pfs/errors';
import { amountToJson } from '@pfs/money';
import { parseBooleanParam, parseEnumParam } from '@pfs/resource-api';
import { type Entry, expensesAndIncomesFilter } from '@pfs/resource-store';
import type { Request } from 'express';
import { readEntryFilters } from '../../http/entry-filters';
import type { PlannedOccurrence } from '../repeats/planned-occurrences';
import { readRepeatFilter, readRepeatId } from '../repeats/repeat-list-filter';
import { TIMELINE_GROUPS, type TimelineGroup, type TimelineRequest } from './timeline.use-case';

/** Reads `GET /entries/timeline`'s parameters; every bad one is a 400 naming it. */
export function readTimelineRequest(req: Request): Omit<TimelineRequest, 'currency'> & { currency?: string } {
  const query = req.query as Record<string, unknown>;
  // Without `type` the timeline holds both kinds, as clients that never send it expect.
  const type = parseEnumParam(query, 'type', ['expense', 'income'] as const);
  const filters = readEntryFilters(req, { requireRange: true });
  if (query.currency !== undefined && typeof query.currency !== 'string')
    throw inputError([{ field: 'currency', error: 'must be one currency code' }]);
  return {
    filters: { ...filters, type, from: filters.from!, to: filters.to! },
    extraFilters: [...readRepeatFilter(req), ...(type ? [] : [expensesAndIncomesFilter])],
    seriesId: readRepeatId(req),
    includeDeleted: parseBooleanParam(query, 'include_deleted') ?? false,
    currency: query.currency as string | undefined,
    group: parseEnumParam(query, 'group', TIMELINE_GROUPS) ?? 'day',
    expand: parseBooleanParam(query, 'expand') ?? false,
  };
}

/** One timeline item: `{day|category|location, sum, count, currency, entries}`. */
export function presentTimelineGroup(
  group: TimelineGroup,
  options: {
    by: TimelineRequest['group'];
    currency: string;
    present: (entry: Entry) => Record<string, unknown>;
    presentPlanned: (item: PlannedOccurrence) => Record<string, unknown>;
  },
): Record<string, unknown> {
  const subject =
    options.by === 'day'
      ? { day: group.key }
      : options.by === 'category'
        ? group.key
          ? { category: group.key }
          : {}
        : { location: group.location };
  return {
    ...subject,
    sum: amountToJson(group.sum),
    count: group.count,
    currency: { code: options.currency },
    entries: [...group.entries.map(options.present), ...group.planned.map(options.presentPlanned)],
  };
}
