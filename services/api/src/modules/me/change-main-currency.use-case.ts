import { inputError } from '@pfs/errors';
import { Decimal, findCrossRate, getCurrency, type RateSource, roundToCurrency } from '@pfs/money';
import {
  type Account,
  AccountRepository,
  accountsTable,
  type AccountSnapshot,
  MainCurrencyChangeRepository,
} from '@pfs/resource-store';
import type { DataSource, EntityManager } from 'typeorm';
import type { CurrencyUpdateMode } from './currency-change-request';

export interface MainCurrencyChange {
  userId: string;
  changeSeq: string;
  from: string;
  to: string;
  mode: CurrencyUpdateMode;
  updateAccounts: boolean;
  /** Units of `to` per 1 `from`, for mode custom. */
  customRate?: string;
}

const bulk = new MainCurrencyChangeRepository();

/**
 * The ledger side of a main-currency change, inside the caller's change transaction (docs/ledger.md,
 * "Main currency changes"). `historical` and `custom` leave entries as they are (main_rate and sums derive
 * from the user's rates when read); with `update_accounts` they move the accounts in the old currency to the
 * new one. `sign` relabels the old code as the new one. Bulk steps are single statements.
 */
export async function changeMainCurrency(
  deps: { dataSource: DataSource; rates: RateSource },
  manager: EntityManager,
  change: MainCurrencyChange,
): Promise<void> {
  const { userId, changeSeq } = change;
  if (change.mode === 'sign') {
    const { accountIds, entries } = await bulk.relabel(manager, change);
    await bulk.recomputeTotals(manager, userId, [...accountIds, ...entries.accountIds], changeSeq);
    return;
  }
  if (!change.updateAccounts) return;
  const accounts = (await new AccountRepository(deps.dataSource).listInOrder(manager, userId)).filter(
    (account) => account.currency === change.from,
  );
  if (!accounts.length) return;
  const factorOn = (date: string): Decimal => {
    const factor =
      change.mode === 'custom'
        ? new Decimal(change.customRate!)
        : findCrossRate(deps.rates, change.from, change.to, date);
    if (factor) return factor;
    throw inputError([
      {
        field: 'currency.main',
        error: `no exchange rate from ${change.from} to ${change.to} on ${date}; use currency.update custom`,
      },
    ]);
  };
  // Balances and limits have no date: they convert with the rate of the day of the change.
  const today = factorOn(new Date().toISOString().slice(0, 10));
  for (const account of accounts) {
    await accountsTable.update(
      manager,
      userId,
      account.id,
      changeSeq,
      convertAccount(account, change.to, today),
    );
  }
  const accountIds = accounts.map((account) => account.id);
  const dates = await bulk.entryDates(manager, userId, accountIds);
  await bulk
    .rerateEntries(manager, {
      userId,
      accountIds,
      to: change.to,
      precision: getCurrency(change.to).precision,
      factors: dates.map((date) => ({ date, factor: factorOn(date).toFixed() })),
      changeSeq,
    })
    .catch(refuseOutOfRange(change));
  await bulk.recomputeTotals(manager, userId, accountIds, changeSeq);
  await bulk.rerateRepeatTemplates(manager, { userId, accountIds, to: change.to, factor: today.toFixed() });
}

/** Postgres codes of a converted value that does not fit: too large for its column, or a rate rounded to 0. */
const OUT_OF_RANGE = new Set(['22003', '23514']);

/**
 * A conversion whose results do not fit the stored ranges (say, a huge amount times a currency with a very
 * large rate) is the client's input, not a server fault: a 400 naming `currency.main` (the transaction
 * rolls back).
 */
function refuseOutOfRange(change: MainCurrencyChange) {
  return (error: { code?: string; driverError?: { code?: string } }): never => {
    const code = error.driverError?.code ?? error.code;
    if (code && OUT_OF_RANGE.has(code)) {
      throw inputError([
        {
          field: 'currency.main',
          error: `converting the accounts from ${change.from} to ${change.to} gives amounts or rates out of range`,
        },
      ]);
    }
    throw error;
  };
}

/** The account in `to`: its initial balance, limit and goal amount converted by `factor`, half-even. */
function convertAccount(account: Account, to: string, factor: Decimal): AccountSnapshot {
  const convert = (amount: string) => roundToCurrency(new Decimal(amount).times(factor), to).toFixed();
  const snapshot = accountsTable.options.toSnapshot(account) as AccountSnapshot;
  return {
    ...snapshot,
    currency: { code: to },
    initial_balance: convert(snapshot.initial_balance),
    ...(snapshot.limit !== undefined ? { limit: convert(snapshot.limit) } : {}),
    ...(snapshot.goal ? { goal: { ...snapshot.goal, amount: convert(snapshot.goal.amount) } } : {}),
  };
}
