import type { RateSource } from '@pfs/money';
import type { AccountRepository, EntryRepository, UserRepository } from '@pfs/resource-store';
import type { DataSource } from 'typeorm';

/** What the ledger's use cases need; built once in the API's dependencies. */
export interface LedgerDeps {
  dataSource: DataSource;
  accounts: AccountRepository;
  entries: EntryRepository;
  users: UserRepository;
  /** EUR reference rates loaded from `currency_rates` at boot. */
  rates: RateSource;
}
