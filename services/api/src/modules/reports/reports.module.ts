import type { ApiDependencies } from '../../dependencies';
import type { DeclaredOperation } from '../../http/api-operation';
import { apiModule } from '../api-module';
import { computedListQuery, sumsItem, sumsQuery } from '../entries/entry-queries.schema';
import { entrySumsHandler } from './entry-sums.routes';
import { groupSumsHandler } from './group-sums.routes';
import { repeatPlannedSums } from './repeat-planned-sums';
import { summaryHandler } from './summary.routes';
import { timelineHandler } from './timeline.routes';

const sumsOperation = (
  resource: 'tags' | 'categories',
  key: 'tag' | 'category',
): DeclaredOperation<ReportsHandlers> => ({
  resource,
  rel: 'sums',
  href: `/${resource}/sums`,
  method: 'GET',
  title: `Expense and income sums per ${key} over a period, in one currency`,
  hrefSchema: {
    type: 'object',
    required: ['from', 'to', 'currency'],
    properties: { ...sumsQuery, currency: { type: 'string', pattern: '^[A-Z]{3}$' } },
  },
  target: {
    type: 'array',
    // Entries without a category add up in one row without `category` (never `category: null`).
    items: sumsItem({ [key]: { type: 'string' } }, key === 'tag' ? ['tag'] : []),
  },
  scope: `${resource}:r entries:r`,
  handler: key === 'tag' ? 'tagSums' : 'categorySums',
});

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

const summaryOperation: DeclaredOperation<ReportsHandlers> = {
  resource: 'me',
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
  handler: 'summary',
};

function reportsHandlers(deps: ApiDependencies) {
  return {
    tagSums: groupSumsHandler(deps, 'tag'),
    categorySums: groupSumsHandler(deps, 'category'),
    entrySums: entrySumsHandler(deps),
    timeline: timelineHandler(deps),
    summary: summaryHandler(deps, { plannedSums: repeatPlannedSums(deps) }),
  };
}

type ReportsHandlers = ReturnType<typeof reportsHandlers>;

/**
 * The reports over entries: `/tags/sums` and `/categories/sums` (sums per tag or category), `/entries/sums`,
 * `/entries/timeline` and `/me/summary`, each a relation of the resource it reports on.
 */
export const reportsModule = apiModule({
  name: 'reports',
  operations: [
    sumsOperation('tags', 'tag'),
    sumsOperation('categories', 'category'),
    {
      resource: 'entries',
      rel: 'sums',
      href: '/entries/sums',
      method: 'GET',
      title: 'Expense and income sums per day, week or month in one currency',
      hrefSchema: {
        type: 'object',
        required: ['from', 'to', 'currency'],
        properties: {
          ...sumsQuery,
          currency: { type: 'string', pattern: '^[A-Z]{3}$' },
          range: { type: 'string', enum: ['day', 'week', 'month'], default: 'day' },
        },
      },
      target: { type: 'array', items: sumsItem({ day: { type: 'string', format: 'date' } }) },
      scope: 'entries:r',
      handler: 'entrySums',
    },
    {
      resource: 'entries',
      rel: 'timeline',
      href: '/entries/timeline',
      method: 'GET',
      title: 'Entries grouped by day, category or location, with exact sums in one currency',
      hrefSchema: {
        type: 'object',
        required: ['from', 'to'],
        properties: {
          ...computedListQuery,
          type: {
            type: 'string',
            enum: ['expense', 'income'],
            description:
              'Default: both. `sum` is the expenses as a magnitude, the incomes, or both as the net.',
          },
          group: { type: 'string', enum: ['day', 'category', 'location'] },
          currency: { type: 'string', description: 'Default: the main currency.' },
          expand: { type: 'boolean', description: 'Also the planned occurrences of repeating entries.' },
        },
      },
      target: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            day: { type: 'string', format: 'date' },
            category: { type: 'string' },
            location: { type: 'object' },
            sum: { type: 'number' },
            count: { type: 'integer' },
            currency: { type: 'object', properties: { code: { type: 'string' } } },
            entries: { type: 'array', items: { type: 'object' } },
          },
        },
      },
      scope: 'entries:r',
      handler: 'timeline',
    },
    summaryOperation,
  ],
  handlers: reportsHandlers,
});
