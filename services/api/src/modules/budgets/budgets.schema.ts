import { RESOURCE_ID_PATTERN } from '@pfs/contracts';
import {
  createSchemaOf,
  type JsonSchema,
  type ResourceDefinition,
  updateSchemaOf,
  type WriteBodyOf,
} from '@pfs/resource-api';
import { BUDGET_FREQUENCIES, BUDGET_STATUSES, BUDGET_TYPES } from '@pfs/resource-store';
import { syncedListParams, pageParams } from '../../http/list-query';

export const id = { type: 'string', pattern: `^${RESOURCE_ID_PATTERN}$` } as const;
const ids = { type: 'array', maxItems: 100, items: id } as const;
const amount = { type: 'number', exclusiveMinimum: -1e15, exclusiveMaximum: 1e15 } as const;
export const date = { type: 'string', format: 'date' } as const;
const figure = { type: 'number', readOnly: true } as const;

export const budgetsListQuery = {
  type: 'object',
  properties: {
    from: { ...date, description: 'Default: `to`, or today (UTC) when neither is given.' },
    to: { ...date, description: 'Default: `from`, or today (UTC) when neither is given.' },
    ...syncedListParams(),
    categories: { type: 'string', description: 'Comma-separated ids: budgets that include any of them.' },
    tags: { type: 'string', description: 'Comma-separated ids: budgets that include any of them.' },
    accounts: { type: 'string', description: 'Comma-separated ids: budgets that include any of them.' },
    search: { type: 'string', description: 'Case-insensitive text in the name.' },
    has_problem: { type: 'boolean', description: 'Only budgets with (true) or without (false) a problem.' },
    one_iteration_only: {
      type: 'boolean',
      description: 'One item per budget: its first iteration in range.',
    },
  },
};

/** The representation; written `as const` so the body type below is derived from what is published. */
const properties = {
  id: { type: 'string', readOnly: true },
  name: { type: 'string', minLength: 1, maxLength: 300 },
  type: { type: 'string', enum: [...BUDGET_TYPES] },
  limit: { ...amount, description: 'Required for regular budgets (≥ 0); computed for delta and percent.' },
  delta: { ...amount, description: 'delta budgets: limit = previous iteration amount + delta (≥ 0).' },
  percent: {
    type: 'number',
    exclusiveMinimum: 0,
    maximum: 100000,
    description: 'percent budgets: limit = percent % of the incomes of the iteration.',
  },
  currency: {
    type: 'object',
    required: ['code'],
    description: 'main_rate (read-only) converts to the main currency on the iteration start.',
    properties: {
      code: { type: 'string', pattern: '^[A-Z]{3}$' },
      rate: { type: 'number', exclusiveMinimum: 0 },
      fixed: { type: 'boolean' },
      main_rate: { type: 'number', readOnly: true },
    },
  },
  recurrence: {
    type: 'object',
    required: ['frequency', 'start'],
    description: 'iteration (read-only) is the index of the shown iteration, 0 first.',
    properties: {
      frequency: { type: 'string', enum: [...BUDGET_FREQUENCIES] },
      interval: { type: 'integer', minimum: 1, maximum: 127 },
      start: date,
      end: date,
      byday: { type: 'string', maxLength: 100 },
      bymonthday: { type: 'string', maxLength: 100 },
      bysetpos: { type: 'string', maxLength: 100 },
      iteration: { type: 'integer', minimum: 0, readOnly: true },
    },
  },
  rollover: { type: 'boolean' },
  rollover_amount: { ...amount, description: 'Set it to replace the computed carry-over.' },
  order: { type: 'integer', minimum: 0, maximum: 255 },
  status: { type: 'string', enum: [...BUDGET_STATUSES] },
  categories: ids,
  '!categories': ids,
  tags: ids,
  '!tags': ids,
  accounts: ids,
  '!accounts': ids,
  from: { ...date, readOnly: true },
  to: { ...date, readOnly: true },
  amount: { ...figure, minimum: 0 },
  planned: { ...figure, minimum: 0 },
  limit_planned: figure,
  history_amount_median: figure,
  problem: { type: 'object', readOnly: true },
  modified: { type: 'string', readOnly: true, description: 'Opaque; send it back on writes.' },
  deleted: { type: 'boolean', readOnly: true },
  recalculated: { type: 'boolean', readOnly: true },
  extra: { type: 'object', description: 'Any JSON the application stores; returned unchanged (≤16 KiB).' },
} as const;

/** A POST, PUT or merged PATCH body once the published schema validated it (legacy shapes already mapped). */
const required = ['name', 'type', 'currency', 'recurrence'] as const;
export type BudgetBody = WriteBodyOf<typeof properties, typeof required>;

export const budgetsSchema: ResourceDefinition = {
  name: 'budgets',
  title: 'Budget',
  description:
    'A spending limit over recurring iterations (docs/budgets.md). Each item is one budget at one iteration (from/to); amount, planned, rollover_amount and the limit of delta and percent budgets are computed from the entries at read, so recalculated is always true.',
  properties,
  createRequired: [...required],
  updateRequired: [...required],
};

/**
 * `period`/`frequency`: a frequency word or an interval of 1–127. Zero (`0`, `"0"`) is not an interval: the
 * bounds and the pattern make it a refused placeholder, so the write treats it as unset (normalize-body.ts).
 */
const legacyPeriod: JsonSchema = {
  type: ['string', 'integer'],
  minimum: 1,
  maximum: 127,
  pattern: '[^0\\s]',
  description: 'Legacy shape: a frequency (monthly, or month) or a whole number (the interval).',
};

/** Toshl's pre-`recurrence` fields, still required by its published budget schemas (budget-legacy-shape.ts). */
const legacyShape: Record<string, JsonSchema> = {
  start: { ...date, description: 'Legacy shape: recurrence.start.' },
  period: legacyPeriod,
  frequency: legacyPeriod,
  end: { ...date, description: 'Legacy shape: recurrence.end.' },
  interval: { type: 'integer', minimum: 1, maximum: 127, description: 'Legacy shape: recurrence.interval.' },
};

/**
 * What a budget write may send, as published: `recurrence`, or the legacy shape in its place (a create
 * needs one of them; a PUT without either keeps the stored recurrence).
 */
function writeBody(base: JsonSchema, forUpdate: boolean): JsonSchema {
  const required = (base.required as string[]).filter((name) => name !== 'recurrence');
  return {
    ...base,
    required,
    properties: { ...(base.properties as object), ...legacyShape },
    ...(forUpdate ? {} : { anyOf: [{ required: ['recurrence'] }, { required: ['start'] }] }),
  };
}

/** The body `POST /budgets` takes, as published. */
export const budgetCreateBody = writeBody(createSchemaOf(budgetsSchema), false);

/** The body `PUT /budgets/{id}` takes, as published. */
export const budgetUpdateBody = writeBody(updateSchemaOf(budgetsSchema), true);

/** The query of `GET /budgets/{id}/history`. */
export const budgetHistoryQuery: JsonSchema = {
  type: 'object',
  required: ['to'],
  properties: {
    from: { ...date, description: 'Default: the budget start.' },
    to: date,
    ...pageParams(),
  },
};

/** One row of `GET /budgets/{id}/history`: the figures of one iteration, paged like every list. */
export const budgetHistoryItem: JsonSchema = {
  type: 'object',
  required: ['budget_id', 'from', 'to', 'iteration', 'limit', 'currency', 'amount', 'planned'],
  properties: {
    budget_id: { type: 'string' },
    from: date,
    to: date,
    iteration: { type: 'integer', minimum: 0 },
    limit: { type: 'number' },
    currency: {
      type: 'object',
      properties: {
        code: { type: 'string' },
        rate: { type: 'number' },
        main_rate: { type: 'number' },
        fixed: { type: 'boolean' },
      },
    },
    limit_planned: { type: 'number' },
    amount: { type: 'number', minimum: 0 },
    planned: { type: 'number', minimum: 0 },
    rollover_amount: { type: 'number' },
  },
};
