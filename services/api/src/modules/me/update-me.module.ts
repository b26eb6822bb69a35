import type { ApiModule } from '../api-module';
import { meSchema } from './me.schema';
import { repeatPlannedSums } from './repeat-planned-sums';
import { summaryRoutes } from './summary.routes';
import { updateMeRoutes } from './update-me.routes';

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
        expenses: { type: 'object' },
        incomes: { type: 'object' },
        budget: { type: 'object', description: 'The overall budget (with budgets:r), as /budgets shows it.' },
        left: { type: 'number' },
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
