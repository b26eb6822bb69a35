import type { RateSource } from '@pfs/money';
import { AccountRepository, EntryRepository, type UserRepository } from '@pfs/resource-store';
import type { DataSource } from 'typeorm';
import type { ApiDependencies } from './dependencies';

/** What the ledger's use cases need; built once in the API's dependencies. */
export interface LedgerDeps {
  dataSource: DataSource;
  accounts: AccountRepository;
  entries: EntryRepository;
  users: UserRepository;
  /** EUR reference rates loaded from `currency_rates` at boot. */
  rates: RateSource;
}

/** The ledger's use-case dependencies, from the API's. */
export function ledgerDepsOf(deps: ApiDependencies): LedgerDeps {
  return {
    dataSource: deps.dataSource,
    accounts: new AccountRepository(deps.dataSource),
    entries: new EntryRepository(deps.dataSource),
    users: deps.users,
    rates: deps.rates,
  };
}
