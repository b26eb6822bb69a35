import { inputError } from '@pfs/errors';
import { parsePageParams, requireScope, userIdOf } from '@pfs/resource-api';
import { Router } from 'express';
import type { ApiDependencies } from '../../dependencies';
import { ratesReady } from '../../http/rates-ready';
import { ledgerDepsOf } from '../../ledger-deps';
import { readEntryFilters } from '../../http/entry-filters';
import { type SumRange, sumEntries } from './sum-entries.use-case';
import { presentSumsRow } from './sums.presenter';

/** `GET /entries/sums` (docs/ledger.md): expense and income sums per day, week or month, paged by offset. */
export function entrySumsRoutes(deps: ApiDependencies): Router {
  const router = Router();
  const api = deps.resourceApi;
  const ledger = ledgerDepsOf(deps);
  router.use('/entries/sums', ratesReady(deps.rates));

  router.get('/entries/sums', requireScope('entries:r'), async (req, res) => {
    const range = (req.query.range ?? 'day') as SumRange;
    if (!['day', 'week', 'month'].includes(range))
      throw inputError([{ field: 'range', error: 'must be one of day, week, month' }]);
    if (typeof req.query.currency !== 'string')
      throw inputError([{ field: 'currency', error: 'is required' }]);
    const { page, perPage } = parsePageParams(req.query as Record<string, unknown>);
    const userId = userIdOf(req);
    const { customRates } = await ledger.entries.findCurrencySettings(deps.dataSource, userId);
    const sums = await sumEntries(ledger, userId, {
      filters: readEntryFilters(req, { requireRange: true }),
      currency: req.query.currency,
      range,
      customRates,
    });
    const body = sums
      .slice(page * perPage, (page + 1) * perPage)
      .map((period) => ({ day: period.day, ...presentSumsRow(period) }));
    api.respond.sendOffsetPage(req, res, 'entries', { page, perPage, total: sums.length, body });
  });

  return router;
}
