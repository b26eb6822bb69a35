import { amountToJson, Decimal } from '@pfs/money';
import { compact, formatModified } from '@pfs/resource-api';
import type { Account } from '@pfs/resource-store';

/** The `/accounts` representation; `balance` is derived (initial balance plus every live entry). */
export function presentAccount(account: Account): Record<string, unknown> {
  return compact({
    id: account.id,
    parent: account.parentId,
    name: account.name,
    type: account.type,
    balance: amountToJson(new Decimal(account.initialBalance).plus(account.entriesTotal)),
    initial_balance: amountToJson(account.initialBalance),
    limit: account.limit === null ? undefined : amountToJson(account.limit),
    currency: { code: account.currency },
    status: account.status,
    order: account.order,
    goal: account.goal ? { ...account.goal, amount: amountToJson(account.goal.amount) } : undefined,
    modified: formatModified(account.modifiedAt),
    deleted: account.deleted || undefined,
    recalculated: true,
    extra: account.extra,
  });
}
