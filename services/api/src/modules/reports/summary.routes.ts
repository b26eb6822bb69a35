import { inputError, notFound } from '@pfs/errors';
import { amountToJson, type Decimal } from '@pfs/money';
import { hasScope } from '@pfs/resource-api';
import type { ApiDependencies } from '../../dependencies';
import { requestContext } from '../../http/request-context';
import { todayUtc } from '../budgets/budget-views.use-case';
import { budgetsDepsOf } from '../budgets/budgets.deps';
import { presentBudget } from '../budgets/budgets.presenter';
import type { ApiHandler } from '../../http/api-operation';
import { withRates } from '../../http/rates-ready';
import { UnchangedAnswers } from '../../http/unchanged-answers';
import { readEntryFilters } from '../../http/entry-filters';
import { ledgerDepsOf } from '../../ledger-deps';
import { sumEntries } from './sum-entries.use-case';
import { allTimeAverage, allTimeTotals, type AllTimeTotals } from './all-time-average';
import { noPlannedSums, type PlannedSums } from './planned-sums.hook';
import { findSummaryBudget } from './summary-budget.use-case';
import { type SideSummary, summarize } from './summary.use-case';

/** Medians need every day of the period in memory: ten years is plenty and stays small. */
const MAX_PERIOD_MS = 3_653 * 86_400_000;

export interface SummaryOptions {
  /** Planned repeat occurrences (`sum_planned`); the repeats engine plugs in here. Default: zero. */
  plannedSums?: PlannedSums;
}

/**
 * `GET /me/summary?from&to[&currency]` (user:r and entries:r): expense and income totals, counts, daily
 * medians, daily and all-time averages over the period, in the main currency unless `currency` is given,
 * with the entry filters of `/entries`. With budgets:r too, `budget` is the overall budget (docs/ledger.md)
 * and `left` its limit − amount; otherwise `left` is incomes − expenses (expense figures are magnitudes,
 * docs/money.md "Signs").
 */
export function summaryHandler(deps: ApiDependencies, options: SummaryOptions = {}): ApiHandler {
  const ledger = ledgerDepsOf(deps);
  const budgets = budgetsDepsOf(deps);
  const plannedSums = options.plannedSums ?? noPlannedSums;
  // Several reads (the user, the month's days, all-time totals, planned repeats, the overall budget's
  // figures): the answer is kept until anything the summary depends on changes.
  const unchanged = new UnchangedAnswers(deps, {
    schema: 'me',
    kind: 'object',
    budgetBytes: 4 * 2 ** 20,
    today: todayUtc,
  });

  const summary: ApiHandler = async (ctx, req, res) => {
    const userId = ctx.userId;
    const filters = readEntryFilters(req, { requireRange: true });
    const from = filters.from!;
    const to = filters.to!;
    if (Date.parse(to) - Date.parse(from) > MAX_PERIOD_MS) {
      throw inputError([{ field: 'to', error: 'the period must be at most ten years' }]);
    }
    const stamp = await unchanged.sendIfUnchanged(req, res);
    if (!stamp) return;
    const user = await deps.users.findById(userId);
    if (!user) throw notFound('User');
    const currency = req.query.currency === undefined ? user.currency : String(req.query.currency);
    const days = await sumEntries(ledger, ctx, {
      filters,
      currency,
      range: 'day',
      customRates: user.customRates,
    });
    const summary = summarize(days, from, to);
    // The all-time totals scan every matching entry: remembered until the user's next write.
    const allTimeFilters = { ...filters, from: undefined, to: undefined };
    const allTime = await deps.resourceApi.rememberAtWatermark<AllTimeTotals>(
      // v2: expense totals became magnitudes; a copy remembered before must not be served.
      `summary:all-time:v2:${userId}:${currency}:${JSON.stringify(allTimeFilters)}`,
      await deps.store.watermark(userId),
      async () =>
        allTimeTotals(
          await sumEntries(ledger, ctx, {
            filters: allTimeFilters,
            currency,
            range: 'day',
            customRates: user.customRates,
          }),
        ),
    );
    const planned = await plannedSums({
      actor: ctx,
      from,
      to,
      currency,
      filters,
      customRates: user.customRates,
    });
    const budget = hasScope(requestContext(req).scopes, 'budgets:r')
      ? await findSummaryBudget(
          budgets,
          { actor: ctx, id: userId, startDay: user.startDay, currency: user.currency },
          { from, currency },
        )
      : undefined;
    const side = (s: SideSummary, name: 'expenses' | 'incomes', sumPlanned: Decimal) => ({
      sum: amountToJson(s.sum),
      sum_planned: amountToJson(sumPlanned),
      count: s.count,
      daily_median: amountToJson(s.dailyMedian),
      daily_avg: amountToJson(s.dailyAverage),
      all_time_avg: amountToJson(allTimeAverage(allTime, name, summary.dayCount)),
    });
    const respond = deps.resourceApi.respond;
    const prepared = respond.prepare({
      from,
      to,
      currency: { code: currency },
      expenses: side(summary.expenses, 'expenses', planned.expenses),
      incomes: side(summary.incomes, 'incomes', planned.incomes),
      ...(budget ? { budget: presentBudget(budget.view) } : {}),
      left: amountToJson(budget ? budget.left : summary.incomes.sum.minus(summary.expenses.sum)),
    });
    respond.sendPrepared(req, res, 'me', prepared);
    unchanged.keep(stamp, res, prepared);
  };

  return withRates(deps.rates, summary);
}
