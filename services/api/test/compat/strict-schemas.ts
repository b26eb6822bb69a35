import Ajv2019 from 'ajv/dist/2019';
import addFormats from 'ajv-formats';

/**
 * The reference's field sets (toshl-api-facts.md §3) as the strict JSON Schemas a client generated from
 * Toshl's published schemas holds: `additionalProperties: false`, so a field PFS adds that Toshl does not
 * have fails the client. Formats are what such clients check: ids as strings, `modified` in the
 * `YYYY-MM-DD HH:MM:SS.SSS` form, `created` RFC 3339, dates `YYYY-MM-DD`.
 */
const id = { type: 'string', pattern: '^[0-9]+$' };
const ids = { type: 'array', items: id };
const modified = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{3}$' };
const date = { type: 'string', format: 'date' };
const strict = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});
const currency = strict(
  {
    code: { type: 'string' },
    rate: { type: 'number' },
    main_rate: { type: 'number' },
    fixed: { type: 'boolean' },
  },
  ['code'],
);
const weekly = { byday: { type: 'string' }, bymonthday: {}, bysetpos: {} };

export const REFERENCE_SCHEMAS: Record<string, object> = {
  account: strict(
    {
      id,
      parent: id,
      name: { type: 'string' },
      name_override: { type: 'boolean' },
      type: {
        enum: [
          'custom',
          'depository',
          'credit_card',
          'loan',
          'mortgage',
          'brokerage',
          'investment',
          'savings',
          'other',
        ],
      },
      balance: { type: 'number' },
      initial_balance: { type: 'number' },
      limit: { type: ['number', 'null'] },
      currency,
      daily_sum_median: { type: 'object' },
      avg: { type: 'object' },
      status: { enum: ['active', 'inactive', 'archived'] },
      order: { type: 'integer' },
      modified,
      goal: strict({ amount: { type: 'number' }, start: date, end: date }, ['amount', 'start', 'end']),
      connection: { type: 'object' },
      settle: strict(weekly),
      billing: strict(weekly),
      count: { type: 'integer' },
      review: { type: 'integer' },
      deleted: { type: 'boolean' },
      recalculated: { type: 'boolean' },
      extra: { type: 'object' },
    },
    ['id', 'name', 'balance', 'currency', 'modified'],
  ),
  entry: strict(
    {
      id,
      amount: { type: 'number' },
      currency,
      date,
      desc: { type: 'string' },
      account: id,
      category: id,
      tags: ids,
      location: strict(
        { id: {}, venue_id: { type: 'string' }, latitude: { type: 'number' }, longitude: { type: 'number' } },
        ['latitude', 'longitude'],
      ),
      created: { type: 'string', format: 'date-time' },
      modified,
      repeat: { type: 'object' },
      transaction: strict({ id, amount: { type: 'number' }, account: id, currency }, ['account']),
      images: {
        type: 'array',
        items: strict({ id, path: {}, filename: {}, type: { enum: ['image', 'pdf'] }, status: {} }, ['id']),
      },
      reminders: {
        type: 'array',
        items: strict({ period: {}, number: { type: 'integer' }, at: { type: 'string' } }, [
          'period',
          'number',
          'at',
        ]),
      },
      import: { type: 'object' },
      review: { type: 'object' },
      settle: { type: 'object' },
      split: { type: 'object' },
      completed: { type: 'boolean' },
      deleted: { type: 'boolean' },
      extra: { type: 'object' },
    },
    ['id', 'amount', 'currency', 'date', 'account', 'category', 'created', 'modified'],
  ),
  category: strict(
    {
      id,
      name: { type: 'string' },
      name_override: { type: 'boolean' },
      modified,
      type: { enum: ['expense', 'income', 'system'] },
      deleted: { type: 'boolean' },
      transient_created: {},
      transient_valid_till: {},
      counts: strict(
        Object.fromEntries(
          [
            'entries',
            'income_entries',
            'expense_entries',
            'tags_used_with_category',
            'income_tags_used_with_category',
            'expense_tags_used_with_category',
            'tags',
            'income_tags',
            'expense_tags',
            'budgets',
          ].map((key) => [key, { type: 'integer', minimum: 0 }]),
        ),
      ),
      extra: { type: 'object' },
    },
    ['id', 'name', 'type', 'modified'],
  ),
  tag: strict(
    {
      id,
      name: { type: 'string' },
      name_override: { type: 'boolean' },
      modified,
      type: { enum: ['expense', 'income'] },
      category: id,
      counts: strict(
        {
          entries: { type: 'integer', minimum: 0 },
          unsorted_entries: { type: 'integer', minimum: 0 },
          budgets: { type: 'integer', minimum: 0 },
        },
        ['entries', 'budgets'],
      ),
      deleted: { type: 'boolean' },
      meta_tag: { type: 'boolean' },
      extra: { type: 'object' },
    },
    ['id', 'name', 'type', 'modified'],
  ),
  budget: strict(
    {
      id,
      parent: id,
      name: { type: 'string' },
      limit: { type: 'number' },
      limit_planned: { type: 'number' },
      amount: { type: 'number', minimum: 0 },
      planned: { type: 'number' },
      history_amount_median: { type: 'number' },
      currency,
      from: date,
      to: date,
      rollover: { type: 'boolean' },
      rollover_override: { type: 'boolean' },
      rollover_amount: { type: 'number' },
      rollover_amount_planned: { type: 'number' },
      modified,
      recurrence: { type: 'object' },
      status: { enum: ['active', 'inactive', 'archived'] },
      type: { enum: ['regular', 'delta', 'percent'] },
      percent: { type: 'number' },
      delta: { type: 'number' },
      order: { type: 'integer' },
      tags: ids,
      '!tags': ids,
      categories: ids,
      '!categories': ids,
      accounts: ids,
      '!accounts': ids,
      deleted: { type: 'boolean' },
      recalculated: { type: 'boolean' },
      problem: { type: 'object' },
      extra: { type: 'object' },
    },
    ['id', 'name', 'limit', 'currency', 'from', 'to', 'modified'],
  ),
  me: strict(
    {
      id,
      email: { type: 'string' },
      first_name: { type: 'string' },
      last_name: { type: 'string' },
      joined: { type: 'string', format: 'date-time' },
      modified,
      pro: { type: 'object' },
      // `custom` is the reference's PUT /me `currency.custom`, echoed back.
      currency: strict({ main: { type: 'string' }, recent: { type: 'array' }, custom: { type: 'array' } }, [
        'main',
      ]),
      start_day: { type: 'integer', minimum: 1, maximum: 31 },
      notifications: { type: 'integer' },
      social: { type: 'array' },
      steps: { type: 'array' },
      limits: { type: 'object' },
      locale: { type: 'string' },
      timezone: { type: 'string' },
      country: { type: 'string' },
      migration: { type: 'object' },
      extra: { type: 'object' },
    },
    ['id', 'email', 'joined', 'modified', 'currency'],
  ),
  // The reference's currency schema has no `code` (its list is probably keyed by code); PFS sends a list,
  // so each item names its code.
  currency: strict(
    {
      code: { type: 'string', pattern: '^[A-Z0-9_]{2,10}$' },
      name: { type: 'string' },
      symbol: { type: 'string' },
      precision: { type: 'integer', minimum: 0, maximum: 9 },
      modified,
      type: { enum: ['fiat', 'commodity', 'crypto', 'deprecated'] },
    },
    ['code', 'name', 'precision'],
  ),
};

const ajv = new Ajv2019({ allErrors: true, strict: false });
addFormats(ajv);
const validators = Object.fromEntries(
  Object.entries(REFERENCE_SCHEMAS).map(([name, schema]) => [name, ajv.compile(schema)]),
);

/** The reasons a strict generated client refuses `value` as a `kind`; empty when it parses. */
export function strictProblems(kind: keyof typeof REFERENCE_SCHEMAS, value: unknown): string[] {
  const validate = validators[kind];
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (error) =>
      `${error.instancePath || '(root)'} ${error.message}${
        'additionalProperty' in error.params ? `: ${String(error.params.additionalProperty)}` : ''
      }`,
  );
}
