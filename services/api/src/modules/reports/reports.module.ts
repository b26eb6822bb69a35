import type { HyperLink } from '@pfs/resource-api';
import { Router } from 'express';
import type { ApiModule } from '../api-module';
import { categoriesSchema } from '../categories/categories.schema';
import { tagsSchema } from '../tags/tags.schema';
import { sumsItem, sumsQuery } from '../entries/entry-queries.schema';
import { meSchema } from '../me/me.schema';
import { entrySumsRoutes } from './entry-sums.routes';
import { groupSumsRoutes } from './group-sums.routes';
import { repeatPlannedSums } from './repeat-planned-sums';
import { summaryRoutes } from './summary.routes';
import { timelineRoutes } from './timeline.routes';

const sumsLink = (resource: 'tags' | 'categories', key: 'tag' | 'category'): HyperLink => ({
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
});

tagsSchema.links.push(sumsLink('tags', 'tag'));
categoriesSchema.links.push(sumsLink('categories', 'category'));

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

// The me module owns the `me` schema; the summary adds its link to it, so /schema/me and the OpenAPI
// document describe it (the schema registry compiles it once, after every module is imported).
meSchema.links.push({
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
});

/**
 * The reports over entries: `/tags/sums` and `/categories/sums` (sums per tag or category), `/entries/sums`,
 * `/entries/timeline` and `/me/summary`. Mounted before the tags, categories and entries routes, whose
 * `/tags/{id}`, `/categories/{id}` and `/entries/{id}` would otherwise take these paths.
 */
export const reportsModule: ApiModule = {
  name: 'reports',
  routes: (deps) =>
    Router().use(
      groupSumsRoutes(deps),
      entrySumsRoutes(deps),
      timelineRoutes(deps),
      summaryRoutes(deps, { plannedSums: repeatPlannedSums(deps) }),
    ),
};
