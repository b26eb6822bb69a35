import { inputError, notFound } from '@pfs/errors';
import { amountToJson } from '@pfs/money';
import { requireScopes, userIdOf } from '@pfs/resource-api';
import { Router } from 'express';
import type { ApiDependencies } from '../../dependencies';
import { readEntryFilters } from '../entries/entry-list-filters';
import { ledgerDepsOf } from '../entries/ledger-deps-of';
import { sumEntries } from '../entries/sum-entries.use-case';
import { ratesReady } from '../currencies/rate-book';
import { summarize } from './summary.use-case';

/**
 * `GET /me/summary?from&to[&currency]` (user:r and entries:r): expense and income totals, counts, daily
 * medians and daily averages over the period, in the main currency unless `currency` is given, with the
 * entry filters of `/entries`. `left` is incomes plus expenses (no budgets exist yet to subtract from).
 */
/** Medians need every day of the period in memory: ten years is plenty and stays small. */
const MAX_PERIOD_MS = 3_653 * 86_400_000;

export function summaryRoutes(deps: ApiDependencies): Router {
  const router = Router();
  const ledger = ledgerDepsOf(deps);

  router.get(
    '/me/summary',
    requireScopes('user:r', 'entries:r'),
    ratesReady(deps.rates),
    async (req, res) => {
      const userId = userIdOf(req);
      const user = await deps.users.findById(userId);
      if (!user) throw notFound('User');
      const filters = readEntryFilters(req, { requireRange: true });
      const currency = req.query.currency === undefined ? user.currency : String(req.query.currency);
      if (Date.parse(filters.to!) - Date.parse(filters.from!) > MAX_PERIOD_MS) {
        throw inputError([{ field: 'to', error: 'the period must be at most ten years' }]);
      }
      const days = await sumEntries(ledger, userId, {
        filters,
        currency,
        range: 'day',
        customRates: user.customRates,
      });
      const summary = summarize(days, filters.from!, filters.to!);
      const side = (s: typeof summary.expenses) => ({
        sum: amountToJson(s.sum),
        count: s.count,
        daily_median: amountToJson(s.dailyMedian),
        daily_avg: amountToJson(s.dailyAverage),
      });
      deps.resourceApi.respond.sendObject(req, res, 'me', {
        from: filters.from,
        to: filters.to,
        currency: { code: currency },
        expenses: side(summary.expenses),
        incomes: side(summary.incomes),
        left: amountToJson(summary.incomes.sum.plus(summary.expenses.sum)),
      });
    },
  );

  return router;
}
