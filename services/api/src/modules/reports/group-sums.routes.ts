import { parsePageParams } from '@pfs/resource-api';
import { inputError } from '@pfs/errors';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler } from '../../http/api-operation';
import { withRates } from '../../http/rates-ready';
import { readEntryFilters } from '../../http/entry-filters';
import { ledgerDepsOf } from '../../ledger-deps';
import { sumEntriesByGroup } from './sum-by-group.use-case';
import { presentSumsRow } from './sums.presenter';

/**
 * `GET /tags/sums` and `GET /categories/sums` (docs/categories-tags.md): expense and income sums per tag or
 * category over from..to in one currency, with the entry filters of `/entries`, paginated (page, per_page,
 * Link, X-Total-Count). Items `{tag | category, expenses, incomes, modified}`, the reference's sums item. They read entries, so they need entries:r beside tags:r or categories:r.
 */
export function groupSumsHandler(deps: ApiDependencies, groupBy: 'tag' | 'category'): ApiHandler {
  const ledger = ledgerDepsOf(deps);
  const key = groupBy;
  const sums: ApiHandler = async (ctx, req, res) => {
    if (typeof req.query.currency !== 'string')
      throw inputError([{ field: 'currency', error: 'is required' }]);
    const filters = readEntryFilters(req, { requireRange: true });
    const { page, perPage } = parsePageParams(req.query as Record<string, unknown>);
    const settings = await ledger.entries.findCurrencySettings(deps.store.read(ctx));
    const rows = await sumEntriesByGroup(ledger, ctx, {
      filters,
      currency: req.query.currency,
      groupBy,
      customRates: settings.customRates,
    });
    // Entries without a category make one row without `category`: a row never holds null.
    const body = rows.slice(page * perPage, (page + 1) * perPage).map((sum) => ({
      ...(sum.group === null ? {} : { [key]: sum.group }),
      ...presentSumsRow(sum),
    }));
    deps.resourceApi.respond.sendOffsetPage(req, res, groupBy === 'tag' ? 'tags' : 'categories', {
      page,
      perPage,
      total: rows.length,
      body,
    });
  };
  return withRates(deps.rates, sums);
}
