import { FieldError, inputError } from '@pfs/errors';
import { formatAmount, isKnownCurrency, isWithinAmountLimit, parseAmount, roundToCurrency } from '@pfs/money';
import { ACCOUNT_STATUSES, ACCOUNT_TYPES, type AccountGoal, type AccountSnapshot } from '@pfs/resource-store';
import { DATE_RULE, isValidDate } from '../entries/entry-draft';

export const MAX_ACCOUNT_NAME = 100;
const ID = /^[1-9]\d{0,17}$/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Reads an account body (API shape, read-only fields already dropped) into the stored snapshot, or throws one
 * 400 naming every bad field. Amounts are rounded to the account currency's precision (half-even).
 */
export function readAccountSnapshot(body: unknown, defaults: { order: number }): AccountSnapshot {
  if (!isObject(body)) throw inputError([{ field: '(body)', error: 'must be a JSON object' }]);
  const errors: FieldError[] = [];
  const fail = (field: string, error: string) => errors.push({ field, error });
  const name = typeof body.name === 'string' ? body.name.trim() : '';
  if (!name || name.length > MAX_ACCOUNT_NAME) fail('name', `must be 1–${MAX_ACCOUNT_NAME} characters`);
  const currency = isObject(body.currency) ? body.currency.code : undefined;
  const code = typeof currency === 'string' && isKnownCurrency(currency) ? currency : undefined;
  if (!code) fail('currency.code', 'must be a known ISO 4217 currency code');
  const type = body.type ?? 'custom';
  if (!ACCOUNT_TYPES.includes(type as (typeof ACCOUNT_TYPES)[number]))
    fail('type', `must be one of ${ACCOUNT_TYPES.join(', ')}`);
  const status = body.status ?? 'active';
  if (!ACCOUNT_STATUSES.includes(status as (typeof ACCOUNT_STATUSES)[number])) {
    fail('status', `must be one of ${ACCOUNT_STATUSES.join(', ')}`);
  }
  const readMoney = (field: string, value: unknown) => {
    if (value === undefined || value === null) return undefined;
    const amount = parseAmount(value);
    if (!amount || !isWithinAmountLimit(amount))
      return void fail(field, 'must be a number between -1e15 and 1e15');
    return code ? formatAmount(roundToCurrency(amount, code)) : undefined;
  };
  const initialBalance = readMoney('initial_balance', body.initial_balance) ?? '0';
  const limit = readMoney('limit', body.limit);
  const order = body.order ?? defaults.order;
  if (!Number.isInteger(order) || (order as number) < 0 || (order as number) > 255)
    fail('order', 'must be an integer 0–255');
  if (body.parent !== undefined && !(typeof body.parent === 'string' && ID.test(body.parent)))
    fail('parent', 'must be an id string');
  const goal = readGoal(body.goal, fail);
  if (body.extra !== undefined && !isObject(body.extra)) fail('extra', 'must be an object');
  if (errors.length) throw inputError(errors);
  return {
    name,
    type: type as string,
    currency: { code: code! },
    initial_balance: initialBalance,
    ...(limit !== undefined ? { limit } : {}),
    status: status as string,
    order: order as number,
    ...(body.parent ? { parent: body.parent as string } : {}),
    ...(goal ? { goal } : {}),
    ...(body.extra ? { extra: body.extra as Record<string, unknown> } : {}),
  };
}

function readGoal(value: unknown, fail: (field: string, error: string) => void): AccountGoal | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) return void fail('goal', 'must be an object with amount, start and end');
  const amount = parseAmount(value.amount);
  if (!amount || !amount.greaterThan(0) || !isWithinAmountLimit(amount))
    fail('goal.amount', 'must be greater than 0');
  if (!isValidDate(value.start)) fail('goal.start', DATE_RULE);
  if (!isValidDate(value.end)) fail('goal.end', DATE_RULE);
  if (isValidDate(value.start) && isValidDate(value.end) && value.end < value.start)
    fail('goal.end', 'must not be before start');
  return amount
    ? { amount: formatAmount(amount), start: value.start as string, end: value.end as string }
    : undefined;
}
