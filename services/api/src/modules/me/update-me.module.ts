import type { ApiModule } from '../api-module';
import { meSchema } from './me.schema';
import { repeatPlannedSums } from './repeat-planned-sums';
import { summaryRoutes } from './summary.routes';
import { updateMeRoutes } from './update-me.routes';

/** One side of the summary: every figure a magnitude (docs/money.md "Signs"). */
const magnitude = { type: 'number', minimum: 0 };
const summarySide = {
  type: 'object',
  required: ['sum', 'sum_planned', 'count', 'daily_median', 'daily_avg', 'all_time_avg'],
  properties: {
    sum: magnitude,
    sum_planned: magnitude,
    count: { type: 'integer', minimum: 0 },
    daily_median: magnitude,
    daily_avg: magnitude,
    all_time_avg: magnitude,
  },
};

// The me module owns the `me` schema; these routes add their links to it, so /schema/me and the OpenAPI
// document describe them (the schema registry compiles it once, after every module is imported).
meSchema.links.push(
  {
    rel: 'update',
    href: '/me',
    method: 'PUT',
    title: 'Replace the profile',
    submission: 'update',
    target: 'object',
    scope: 'user:rw',
  },
  {
    rel: 'summary',
    href: '/me/summary',
    method: 'GET',
    title:
      'Expense and income totals, counts, daily medians, daily and all-time averages over a period (main currency), the overall budget and what is left',
    hrefSchema: {
      type: 'object',
      required: ['from', 'to'],
      properties: {
        from: { type: 'string', format: 'date' },
        to: { type: 'string', format: 'date' },
        currency: { type: 'string', pattern: '^[A-Z]{3}$' },
      },
    },
    target: {
      type: 'object',
      properties: {
        from: { type: 'string', format: 'date' },
        to: { type: 'string', format: 'date' },
        currency: { type: 'object', properties: { code: { type: 'string' } } },
        expenses: summarySide,
        incomes: summarySide,
        budget: { type: 'object', description: 'The overall budget (with budgets:r), as /budgets shows it.' },
        left: { type: 'number', description: 'The budget limit − amount; without one, incomes − expenses.' },
      },
    },
    scope: 'user:r entries:r',
  },
);

/** PUT /me and GET /me/summary, on the `me` schema the me module registers. */
export const meLedgerModule: ApiModule = {
  name: 'me-ledger',
  routes: (deps) => updateMeRoutes(deps).use(summaryRoutes(deps, { plannedSums: repeatPlannedSums(deps) })),
};
