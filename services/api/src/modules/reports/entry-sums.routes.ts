import { inputError } from '@pfs/errors';
import { parsePageParams } from '@pfs/resource-api';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler } from '../../http/api-operation';
import { withRates } from '../../http/rates-ready';
import { ledgerDepsOf } from '../../ledger-deps';
import { readEntryFilters } from '../../http/entry-filters';
import { type SumRange, sumEntries } from './sum-entries.use-case';
import { presentSumsRow } from './sums.presenter';

/** `GET /entries/sums` (docs/ledger.md): expense and income sums per day, week or month, paged by offset. */
export function entrySumsHandler(deps: ApiDependencies): ApiHandler {
  const api = deps.resourceApi;
  const ledger = ledgerDepsOf(deps);

  const sums: ApiHandler = async (ctx, req, res) => {
    const range = (req.query.range ?? 'day') as SumRange;
    if (!['day', 'week', 'month'].includes(range))
      throw inputError([{ field: 'range', error: 'must be one of day, week, month' }]);
    if (typeof req.query.currency !== 'string')
      throw inputError([{ field: 'currency', error: 'is required' }]);
    const { page, perPage } = parsePageParams(req.query as Record<string, unknown>);
    const { customRates } = await ledger.entries.findCurrencySettings(deps.store.read(ctx));
    const sums = await sumEntries(ledger, ctx, {
      filters: readEntryFilters(req, { requireRange: true }),
      currency: req.query.currency,
      range,
      customRates,
    });
    const body = sums
      .slice(page * perPage, (page + 1) * perPage)
      .map((period) => ({ day: period.day, ...presentSumsRow(period) }));
    api.respond.sendOffsetPage(req, res, 'entries', { page, perPage, total: sums.length, body });
  };

  return withRates(deps.rates, sums);
}
