import { type FieldError, inputError } from '@pfs/errors';
import {
  Decimal,
  formatAmount,
  isKnownCurrency,
  isWithinAmountLimit,
  parseAmount,
  roundToCurrency,
} from '@pfs/money';
import {
  BUDGET_REFERENCE_FIELDS,
  type BudgetRecurrence,
  type BudgetSnapshot,
  type Snapshot,
} from '@pfs/resource-store';
import { DATE_RULE, isValidDate } from '../../http/date-rule';

const asObject = (value: unknown) => (value ?? {}) as Record<string, unknown>;

/**
 * Reads a budget body (normalised and validated by the published schema: types, enums, lengths) into the
 * stored snapshot, adding the rules a JSON schema cannot say; throws one 400 naming every bad field.
 * Amounts are rounded half-even to the budget currency. Only regular budgets store a limit: delta and
 * percent limits are computed, so the limit a client sends back with them is ignored.
 */
export function readBudgetSnapshot(state: Snapshot, defaults: { order: number }): BudgetSnapshot {
  const errors: FieldError[] = [];
  const fail = (field: string, error: string) => errors.push({ field, error });
  const name = String(state.name ?? '').trim();
  if (!name) fail('name', 'must be 1–300 characters');
  const currency = asObject(state.currency);
  const code = String(currency.code ?? '');
  if (!isKnownCurrency(code)) fail('currency.code', 'must be a known ISO 4217 currency code');
  const money = (field: string, value: unknown, rule: 'any' | 'non-negative' = 'any') => {
    if (value === undefined) return undefined;
    const amount = parseAmount(value);
    if (!amount || !isWithinAmountLimit(amount) || (rule === 'non-negative' && amount.isNegative())) {
      fail(field, rule === 'any' ? 'must be a number between -1e15 and 1e15' : 'must be a number ≥ 0');
      return undefined;
    }
    return formatAmount(isKnownCurrency(code) ? roundToCurrency(amount, code) : amount);
  };
  const type = state.type as BudgetSnapshot['type'];
  const limit = type === 'regular' ? money('limit', state.limit, 'non-negative') : undefined;
  if (type === 'regular' && state.limit === undefined) fail('limit', 'is required for regular budgets');
  const delta = type === 'delta' ? money('delta', state.delta) : undefined;
  if (type === 'delta' && state.delta === undefined) fail('delta', 'is required for delta budgets');
  const percent = type === 'percent' && state.percent !== undefined ? String(state.percent) : undefined;
  if (type === 'percent' && percent === undefined) fail('percent', 'is required for percent budgets (> 0)');
  const recurrence = readRecurrence(asObject(state.recurrence), fail);
  const rate = readRate(currency.rate, fail);
  const rolloverAmount = money('rollover_amount', state.rollover_amount);
  if (errors.length) throw inputError(errors);
  return {
    name,
    type,
    ...(limit !== undefined ? { limit } : {}),
    ...(delta !== undefined ? { delta } : {}),
    ...(percent !== undefined ? { percent } : {}),
    currency: {
      code,
      ...(rate !== undefined ? { rate } : {}),
      fixed: currency.fixed === true,
    },
    recurrence,
    rollover: state.rollover === true,
    ...(rolloverAmount !== undefined ? { rollover_amount: rolloverAmount } : {}),
    order: (state.order as number | undefined) ?? defaults.order,
    status: (state.status as string | undefined) ?? 'active',
    ...Object.fromEntries(
      BUDGET_REFERENCE_FIELDS.filter((field) => Array.isArray(state[field]) && state[field].length).map(
        (field) => [field, [...new Set(state[field] as string[])]],
      ),
    ),
    ...(state.extra ? { extra: state.extra as Record<string, unknown> } : {}),
  };
}

/** The bounds of custom rates (docs/ledger.md): a rate outside them is a typo, and could not be stored. */
const MIN_RATE = new Decimal('0.000001');
const MAX_RATE = new Decimal('1000000');

/** `currency.rate` (units of the budget currency per unit of the main one), kept to 12 significant digits. */
function readRate(value: unknown, fail: (field: string, error: string) => void): string | undefined {
  if (value === undefined || value === null) return undefined;
  const rate = parseAmount(value);
  if (!rate || rate.lessThan(MIN_RATE) || rate.greaterThan(MAX_RATE)) {
    fail('currency.rate', 'must be a number from 0.000001 to 1000000');
    return undefined;
  }
  return formatAmount(rate.toSignificantDigits(12, Decimal.ROUND_HALF_EVEN));
}

function readRecurrence(
  value: Record<string, unknown>,
  fail: (field: string, error: string) => void,
): BudgetRecurrence {
  const recurrence = {
    frequency: value.frequency as BudgetRecurrence['frequency'],
    interval: (value.interval as number | undefined) ?? 1,
    start: String(value.start),
  } as BudgetRecurrence;
  for (const key of ['end', 'byday', 'bymonthday', 'bysetpos'] as const) {
    if (value[key] !== undefined) recurrence[key] = String(value[key]);
  }
  if (!isValidDate(recurrence.start)) fail('recurrence.start', DATE_RULE);
  if (recurrence.end !== undefined && !isValidDate(recurrence.end)) fail('recurrence.end', DATE_RULE);
  if (recurrence.frequency === 'one-time' && !recurrence.end)
    fail('recurrence.end', 'is required for one-time budgets');
  if (recurrence.end && recurrence.end < recurrence.start) fail('recurrence.end', 'must not be before start');
  if (recurrence.bymonthday !== undefined && !/^([1-9]|[12]\d|3[01])$/.test(recurrence.bymonthday))
    fail('recurrence.bymonthday', 'must be a single day of the month 1–31');
  return recurrence;
}
