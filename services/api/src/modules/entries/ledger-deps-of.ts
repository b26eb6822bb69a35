import { AccountRepository, EntryRepository } from '@pfs/resource-store';
import type { ApiDependencies } from '../../dependencies';
import type { LedgerDeps } from './ledger.deps';

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
