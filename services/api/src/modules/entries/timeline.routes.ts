import { findUserCrossRate } from '@pfs/money';
import { buildLinkHeader, parsePageParams, requireScope, userIdOf } from '@pfs/resource-api';
import type { Router } from 'express';
import type { ApiDependencies } from '../../dependencies';
import { type PresenterFor, rawQueryOf } from './entry-lists';
import { ledgerDepsOf } from './ledger-deps-of';
import { type PlannedOccurrence, presentPlanned } from './planned-occurrences';
import { presentTimelineGroup, readTimelineRequest } from './timeline-query';
import { entryTimeline } from './timeline.use-case';

/** `GET /entries/timeline` (docs/ledger.md): groups paged with page/per_page, Link and X-Total-Count. */
export function timelineRoute(router: Router, deps: ApiDependencies, presenterFor: PresenterFor): void {
  const ledger = ledgerDepsOf(deps);
  router.get('/entries/timeline', requireScope('entries:r'), async (req, res) => {
    const userId = userIdOf(req);
    const request = readTimelineRequest(req);
    const { page, perPage } = parsePageParams(req.query as Record<string, unknown>);
    const settings = await ledger.entries.findCurrencySettings(deps.dataSource, userId);
    const currency = request.currency ?? settings.main;
    const groups = await entryTimeline(ledger, userId, {
      ...request,
      currency,
      customRates: settings.customRates,
    });
    const shown = groups.slice(page * perPage, (page + 1) * perPage);
    const present = await presenterFor(
      userId,
      shown.flatMap((group) => group.entries),
      settings,
    );
    const presentPlannedItem = (item: PlannedOccurrence) =>
      presentPlanned(
        item,
        findUserCrossRate(deps.rates, settings.customRates, item.currency, settings.main, item.date),
      );
    res.setHeader(
      'Link',
      buildLinkHeader({
        path: '/entries/timeline',
        rawQuery: rawQueryOf(req),
        page,
        perPage,
        total: groups.length,
      }),
    );
    res.setHeader('X-Total-Count', String(groups.length));
    const body = shown.map((group) =>
      presentTimelineGroup(group, {
        by: request.group,
        currency,
        present,
        presentPlanned: presentPlannedItem,
      }),
    );
    deps.resourceApi.respond.sendObject(req, res, 'entries', body);
  });
}
