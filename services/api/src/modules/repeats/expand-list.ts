import { inputError } from '@pfs/errors';
import { findUserCrossRate } from '@pfs/money';
import { type ListParams, parseBooleanParam } from '@pfs/resource-api';
import {
  type Actor,
  buildEntryFilters,
  type Entry,
  type EntryFilters,
  type SqlFilter,
} from '@pfs/resource-store';
import type { Request, Response } from 'express';
import type { ApiDependencies } from '../../dependencies';
import type { PresenterFor } from '../entries/entry-presenter-for';
import { type LedgerDeps, ledgerDepsOf } from '../../ledger-deps';
import { requestContext } from '../../http/request-context';
import {
  matchesFilters,
  type PlannedOccurrence,
  plannedOccurrences,
  presentPlanned,
} from './planned-occurrences';
import { readRepeatId } from './repeat-list-filter';

/**
 * `GET /entries?expand=true`: also the planned occurrences of repeating entries. They have no change
 * sequence, so an expanded list is paged by offset (no cursor) and cannot be a sync (`since` is refused);
 * from and to are required to bound the expansion.
 */
export function readExpand(req: Request, filters: EntryFilters): boolean {
  const query = req.query as Record<string, unknown>;
  const expand = parseBooleanParam(query, 'expand') ?? false;
  if (!expand) return false;
  for (const name of ['from', 'to'] as const)
    if (!filters[name]) throw inputError([{ field: name, error: 'is required with expand' }]);
  if (query.since !== undefined)
    throw inputError([
      { field: 'since', error: 'cannot be combined with expand (planned entries do not sync)' },
    ]);
  if (query.cursor !== undefined)
    throw inputError([{ field: 'cursor', error: 'cannot be combined with expand; page with page=' }]);
  return true;
}

export interface ExpandedPage {
  entries: Entry[];
  planned: PlannedOccurrence[];
  /** Entries matching the filters plus planned occurrences matching them. */
  total: number;
}

/**
 * One page of the expanded list: the stored entries first (the list's own order), then the planned
 * occurrences in date order, so page N always holds items N·per_page … N·per_page + per_page − 1 of one
 * sequence and X-Total-Count counts both.
 */
export async function listExpanded(
  deps: LedgerDeps,
  actor: Actor,
  params: ListParams,
  filters: EntryFilters,
  sqlFilters: SqlFilter[],
  seriesId?: string,
): Promise<ExpandedPage> {
  const [page, allPlanned] = await Promise.all([
    deps.entries.table.list(deps.store.read(actor), { ...params, after: undefined }, sqlFilters),
    plannedOccurrences(deps, actor, { from: filters.from!, to: filters.to! }),
  ]);
  // A series filter (repeat=) keeps that series' planned occurrences only.
  const planned = allPlanned.filter(
    (item) => matchesFilters(item, filters) && (!seriesId || item.seriesId === seriesId),
  );
  const start = Math.max(0, params.offset - page.total);
  const room = params.perPage - page.items.length;
  return {
    entries: page.items,
    planned: room > 0 ? planned.slice(start, start + room) : [],
    total: page.total + planned.length,
  };
}

/** Answers `GET /entries?expand=true`: Link and X-Total-Count over stored and planned items together. */
export async function sendExpanded(
  http: { req: Request; res: Response; deps: ApiDependencies; presenterFor: PresenterFor },
  params: ListParams,
  filters: EntryFilters,
  seriesFilter: SqlFilter[],
): Promise<void> {
  const { req, res, deps } = http;
  const ledger = ledgerDepsOf(deps);
  const actor = requestContext(req);
  const settings = await ledger.entries.findCurrencySettings(deps.store.read(actor));
  const sqlFilters = [...buildEntryFilters(filters), ...seriesFilter];
  const page = await listExpanded(ledger, actor, params, filters, sqlFilters, readRepeatId(req));
  const present = await http.presenterFor(deps.store.read(actor), page.entries, settings);
  const body = [
    ...page.entries.map(present),
    ...page.planned.map((item) =>
      presentPlanned(
        item,
        findUserCrossRate(deps.rates, settings.customRates, item.currency, settings.main, item.date),
      ),
    ),
  ];
  deps.resourceApi.respond.sendOffsetPage(req, res, 'entries', {
    page: params.page,
    perPage: params.perPage,
    total: page.total,
    body,
  });
}
