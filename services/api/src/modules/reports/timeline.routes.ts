import { findUserCrossRate } from '@pfs/money';
import { parsePageParams } from '@pfs/resource-api';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler } from '../../http/api-operation';
import { withRates } from '../../http/rates-ready';
import { entryPresenterFor } from '../entries/entry-presenter-for';
import { ledgerDepsOf } from '../../ledger-deps';
import { type PlannedOccurrence, presentPlanned } from '../repeats/planned-occurrences';
import { presentTimelineGroup, readTimelineRequest } from './timeline-query';
import { entryTimeline } from './timeline.use-case';

/** `GET /entries/timeline` (docs/ledger.md): groups paged with page/per_page, Link and X-Total-Count. */
export function timelineHandler(deps: ApiDependencies): ApiHandler {
  const ledger = ledgerDepsOf(deps);
  const presenterFor = entryPresenterFor(deps);
  const timeline: ApiHandler = async (ctx, req, res) => {
    const request = readTimelineRequest(req);
    const { page, perPage } = parsePageParams(req.query as Record<string, unknown>);
    const settings = await ledger.entries.findCurrencySettings(deps.store.read(ctx));
    const currency = request.currency ?? settings.main;
    const groups = await entryTimeline(ledger, ctx, {
      ...request,
      currency,
      customRates: settings.customRates,
    });
    const shown = groups.slice(page * perPage, (page + 1) * perPage);
    const present = await presenterFor(
      deps.store.read(ctx),
      shown.flatMap((group) => group.entries),
      settings,
    );
    const presentPlannedItem = (item: PlannedOccurrence) =>
      presentPlanned(
        item,
        findUserCrossRate(deps.rates, settings.customRates, item.currency, settings.main, item.date),
      );
    const body = shown.map((group) =>
      presentTimelineGroup(group, {
        by: request.group,
        currency,
        present,
        presentPlanned: presentPlannedItem,
      }),
    );
    deps.resourceApi.respond.sendOffsetPage(req, res, 'entries', {
      page,
      perPage,
      total: groups.length,
      body,
    });
  };
  return withRates(deps.rates, timeline);
}
