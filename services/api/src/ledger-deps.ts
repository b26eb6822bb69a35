import type { RateSource } from '@pfs/money';
import type {
  AccountRepository,
  EntryRepository,
  RepeatRepository,
  UserRepository,
  ActorStore,
} from '@pfs/resource-store';
import type { ApiDependencies } from './dependencies';

/** What the ledger's use cases need; built once in the API's dependencies. */
export interface LedgerDeps {
  /** Read contexts and changes (the unit of work) for the repositories below. */
  store: ActorStore;
  accounts: AccountRepository;
  entries: EntryRepository;
  repeats: RepeatRepository;
  users: UserRepository;
  /** EUR reference rates loaded from `currency_rates` at boot. */
  rates: RateSource;
}

/** The ledger's use-case dependencies, from the API's. */
export function ledgerDepsOf(deps: ApiDependencies): LedgerDeps {
  return {
    store: deps.store,
    accounts: deps.repos.accounts,
    entries: deps.repos.entries,
    repeats: deps.repos.repeats,
    users: deps.repos.users,
    rates: deps.rates,
  };
}
