import { type FieldError, inputError } from '@pfs/errors';
import { formatAmount, isKnownCurrency, isWithinAmountLimit, parseAmount, roundToCurrency } from '@pfs/money';
import type { Amount } from '@pfs/resource-api';
import type { AccountSnapshot } from '@pfs/resource-store';
import { DATE_RULE, isValidDate } from '../../http/date-rule';
import type { AccountBody } from './accounts.schema';

const MAX_ACCOUNT_NAME = 100;
const AMOUNT_RULE = 'must be a number between -1e15 and 1e15';

/** An amount of a merged state: a JSON number, or the exact text the stored snapshot keeps. */
const isAmount = (value: Amount | undefined) => {
  const amount = parseAmount(value);
  return amount !== undefined && isWithinAmountLimit(amount);
};

/**
 * The rules of an account the published schema cannot say (it has already checked types, lengths, enums and
 * patterns): one 400 naming every broken one, with the same field and rule as ever.
 */
export function assertAccountRules(body: AccountBody): void {
  const errors: FieldError[] = [];
  const fail = (field: string, error: string) => errors.push({ field, error });
  if (!body.name.trim()) fail('name', `must be 1–${MAX_ACCOUNT_NAME} characters`);
  if (!isKnownCurrency(body.currency.code)) fail('currency.code', 'must be a known ISO 4217 currency code');
  if (body.initial_balance !== undefined && !isAmount(body.initial_balance))
    fail('initial_balance', AMOUNT_RULE);
  if (body.limit !== undefined && !isAmount(body.limit)) fail('limit', AMOUNT_RULE);
  if (body.goal) assertGoalRules(body.goal, fail);
  if (errors.length) throw inputError(errors);
}

/** A goal: an amount in range, both dates in the service's range, and not ending before it starts. */
function assertGoalRules(
  goal: NonNullable<AccountBody['goal']>,
  fail: (field: string, error: string) => void,
) {
  const amount = parseAmount(goal.amount);
  if (!amount || !amount.greaterThan(0) || !isWithinAmountLimit(amount))
    fail('goal.amount', 'must be greater than 0');
  if (!isValidDate(goal.start)) fail('goal.start', DATE_RULE);
  if (!isValidDate(goal.end)) fail('goal.end', DATE_RULE);
  if (isValidDate(goal.start) && isValidDate(goal.end) && goal.end < goal.start)
    fail('goal.end', 'must not be before start');
}

/**
 * The stored snapshot of a checked body: the name trimmed, type, status and order defaulted, amounts exact text
 * rounded half-even to the account currency's precision.
 */
export function accountSnapshotOf(body: AccountBody, defaults: { order: number }): AccountSnapshot {
  const code = body.currency.code;
  const money = (value: Amount) => formatAmount(roundToCurrency(parseAmount(value)!, code));
  return {
    name: body.name.trim(),
    type: body.type ?? 'custom',
    currency: { code },
    initial_balance: body.initial_balance === undefined ? '0' : money(body.initial_balance),
    ...(body.limit !== undefined ? { limit: money(body.limit) } : {}),
    status: body.status ?? 'active',
    order: body.order ?? defaults.order,
    ...(body.parent ? { parent: body.parent } : {}),
    ...(body.goal
      ? {
          goal: {
            amount: formatAmount(parseAmount(body.goal.amount)!),
            start: body.goal.start,
            end: body.goal.end,
          },
        }
      : {}),
    ...(body.extra ? { extra: body.extra } : {}),
  };
}
