import { inputError } from '@pfs/errors';
import { Decimal, findCrossRate, getCurrency, type RateSource, roundToCurrency } from '@pfs/money';
import type {
  Account,
  AccountRepository,
  AccountSnapshot,
  MainCurrencyChangeRepository,
  UserChange,
} from '@pfs/resource-store';
import type { CurrencyUpdateMode } from './currency-change-request';

export interface MainCurrencyChange {
  from: string;
  to: string;
  mode: CurrencyUpdateMode;
  updateAccounts: boolean;
  /** Units of `to` per 1 `from`, for mode custom. */
  customRate?: string;
}

export interface MainCurrencyDeps {
  rates: RateSource;
  accounts: AccountRepository;
  mainCurrencyChange: MainCurrencyChangeRepository;
}

/**
 * The ledger side of a main-currency change, inside the caller's change (docs/ledger.md, "Main currency
 * changes"). `historical` and `custom` leave entries as they are (main_rate and sums derive from the
 * user's rates when read); with `update_accounts` they move the accounts in the old currency to the new
 * one. `sign` relabels the old code as the new one. Bulk steps are single statements.
 */
export async function changeMainCurrency(
  deps: MainCurrencyDeps,
  change: UserChange,
  request: MainCurrencyChange,
): Promise<void> {
  const bulk = deps.mainCurrencyChange;
  if (request.mode === 'sign') {
    const { accountIds, entries } = await bulk.relabel(change, request);
    await bulk.recomputeTotals(change, [...accountIds, ...entries.accountIds]);
    return;
  }
  if (!request.updateAccounts) return;
  const accounts = (await deps.accounts.listInOrder(change)).filter(
    (account) => account.currency === request.from,
  );
  if (!accounts.length) return;
  const factorOn = (date: string): Decimal => {
    const factor =
      request.mode === 'custom'
        ? new Decimal(request.customRate!)
        : findCrossRate(deps.rates, request.from, request.to, date);
    if (factor) return factor;
    throw inputError([
      {
        field: 'currency.main',
        error: `no exchange rate from ${request.from} to ${request.to} on ${date}; use currency.update custom`,
      },
    ]);
  };
  // Balances and limits have no date: they convert with the rate of the day of the change.
  const today = factorOn(new Date().toISOString().slice(0, 10));
  for (const account of accounts) {
    await deps.accounts.table.update(change, account.id, convertAccount(deps, account, request.to, today));
  }
  const accountIds = accounts.map((account) => account.id);
  const dates = await bulk.entryDates(change, accountIds);
  await bulk
    .rerateEntries(change, {
      accountIds,
      to: request.to,
      precision: getCurrency(request.to).precision,
      factors: dates.map((date) => ({ date, factor: factorOn(date).toFixed() })),
    })
    .catch(refuseOutOfRange(request));
  await bulk.recomputeTotals(change, accountIds);
  await bulk.rerateRepeatTemplates(change, { accountIds, to: request.to, factor: today.toFixed() });
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
function convertAccount(
  deps: MainCurrencyDeps,
  account: Account,
  to: string,
  factor: Decimal,
): AccountSnapshot {
  const convert = (amount: string) => roundToCurrency(new Decimal(amount).times(factor), to).toFixed();
  const snapshot = deps.accounts.table.options.toSnapshot(account) as AccountSnapshot;
  return {
    ...snapshot,
    currency: { code: to },
    initial_balance: convert(snapshot.initial_balance),
    ...(snapshot.limit !== undefined ? { limit: convert(snapshot.limit) } : {}),
    ...(snapshot.goal ? { goal: { ...snapshot.goal, amount: convert(snapshot.goal.amount) } } : {}),
  };
}
