import { type FieldError, inputError } from '@pfs/errors';
import {
  Decimal,
  formatAmount,
  isKnownCurrency,
  isWithinAmountLimit,
  parseAmount,
  roundToCurrency,
} from '@pfs/money';
import type { Amount } from '@pfs/resource-api';
import { BUDGET_REFERENCE_FIELDS, type BudgetRecurrence, type BudgetSnapshot } from '@pfs/resource-store';
import { DATE_RULE, isValidDate } from '../../http/date-rule';
import type { BudgetBody } from './budgets.schema';

type Fail = (field: string, error: string) => void;

/** The bounds of custom rates (docs/ledger.md): a rate outside them is a typo, and could not be stored. */
const MIN_RATE = new Decimal('0.000001');
const MAX_RATE = new Decimal('1000000');

/** An amount of a budget: in range, and not negative where the rule says so (limits). */
function isBudgetAmount(value: Amount, rule: 'any' | 'non-negative'): boolean {
  const amount = parseAmount(value);
  return !!amount && isWithinAmountLimit(amount) && !(rule === 'non-negative' && amount.isNegative());
}

const amountRule = (rule: 'any' | 'non-negative') =>
  rule === 'any' ? 'must be a number between -1e15 and 1e15' : 'must be a number ≥ 0';

/**
 * The rules of a budget the published schema cannot say (it has already checked types, enums and lengths):
 * which amount each type needs, the recurrence's dates and days, the custom rate's bounds. One 400 naming every
 * broken rule, with the same field and rule as ever.
 */
export function assertBudgetRules(body: BudgetBody): void {
  const errors: FieldError[] = [];
  const fail: Fail = (field, error) => errors.push({ field, error });
  if (!body.name.trim()) fail('name', 'must be 1–300 characters');
  if (!isKnownCurrency(body.currency.code)) fail('currency.code', 'must be a known ISO 4217 currency code');
  const amount = (field: 'limit' | 'delta' | 'rollover_amount', rule: 'any' | 'non-negative' = 'any') => {
    const value = body[field];
    if (value !== undefined && !isBudgetAmount(value, rule)) fail(field, amountRule(rule));
  };
  if (body.type === 'regular') amount('limit', 'non-negative');
  if (body.type === 'regular' && body.limit === undefined) fail('limit', 'is required for regular budgets');
  if (body.type === 'delta') amount('delta');
  if (body.type === 'delta' && body.delta === undefined) fail('delta', 'is required for delta budgets');
  if (body.type === 'percent' && body.percent === undefined)
    fail('percent', 'is required for percent budgets (> 0)');
  assertRecurrenceRules(body.recurrence, fail);
  if (body.currency.rate !== undefined && rateOf(body.currency.rate) === undefined)
    fail('currency.rate', 'must be a number from 0.000001 to 1000000');
  amount('rollover_amount');
  if (errors.length) throw inputError(errors);
}

/** Dates in the service's range, an end for one-time budgets and not before the start, one day of the month. */
function assertRecurrenceRules(recurrence: BudgetBody['recurrence'], fail: Fail): void {
  if (!isValidDate(recurrence.start)) fail('recurrence.start', DATE_RULE);
  if (recurrence.end !== undefined && !isValidDate(recurrence.end)) fail('recurrence.end', DATE_RULE);
  if (recurrence.frequency === 'one-time' && !recurrence.end)
    fail('recurrence.end', 'is required for one-time budgets');
  if (recurrence.end && recurrence.end < recurrence.start) fail('recurrence.end', 'must not be before start');
  if (recurrence.bymonthday !== undefined && !/^([1-9]|[12]\d|3[01])$/.test(recurrence.bymonthday))
    fail('recurrence.bymonthday', 'must be a single day of the month 1–31');
}

/** `currency.rate` (units of the budget currency per unit of the main one), kept to 12 significant digits. */
function rateOf(value: Amount): string | undefined {
  const rate = parseAmount(value);
  if (!rate || rate.lessThan(MIN_RATE) || rate.greaterThan(MAX_RATE)) return undefined;
  return formatAmount(rate.toSignificantDigits(12, Decimal.ROUND_HALF_EVEN));
}

/**
 * The stored snapshot of a checked budget. Amounts are rounded half-even to the budget currency. Only regular
 * budgets store a limit: delta and percent limits are computed, so the limit a client sends back with them is
 * ignored. Filter lists lose repeated ids; interval, order and status get their defaults.
 */
export function budgetSnapshotOf(body: BudgetBody, defaults: { order: number }): BudgetSnapshot {
  const code = body.currency.code;
  const money = (value: Amount | undefined) =>
    value === undefined ? undefined : formatAmount(roundToCurrency(parseAmount(value)!, code));
  const limit = body.type === 'regular' ? money(body.limit) : undefined;
  const delta = body.type === 'delta' ? money(body.delta) : undefined;
  const percent = body.type === 'percent' && body.percent !== undefined ? String(body.percent) : undefined;
  const rate = body.currency.rate === undefined ? undefined : rateOf(body.currency.rate);
  const rolloverAmount = money(body.rollover_amount);
  return {
    name: body.name.trim(),
    type: body.type,
    ...(limit !== undefined ? { limit } : {}),
    ...(delta !== undefined ? { delta } : {}),
    ...(percent !== undefined ? { percent } : {}),
    currency: { code, ...(rate !== undefined ? { rate } : {}), fixed: body.currency.fixed === true },
    recurrence: recurrenceOf(body.recurrence),
    rollover: body.rollover === true,
    ...(rolloverAmount !== undefined ? { rollover_amount: rolloverAmount } : {}),
    order: body.order ?? defaults.order,
    status: body.status ?? 'active',
    ...Object.fromEntries(
      BUDGET_REFERENCE_FIELDS.filter((field) => body[field]?.length).map((field) => [
        field,
        [...new Set(body[field])],
      ]),
    ),
    ...(body.extra ? { extra: body.extra } : {}),
  };
}

function recurrenceOf(recurrence: BudgetBody['recurrence']): BudgetRecurrence {
  const out: BudgetRecurrence = {
    frequency: recurrence.frequency,
    interval: recurrence.interval ?? 1,
    start: recurrence.start,
  };
  for (const key of ['end', 'byday', 'bymonthday', 'bysetpos'] as const) {
    if (recurrence[key] !== undefined) out[key] = recurrence[key];
  }
  return out;
}
