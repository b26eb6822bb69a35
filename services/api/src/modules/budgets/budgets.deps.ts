import type { RateSource } from '@pfs/money';
import type { BudgetRepository, UserRepository, ActorStore } from '@pfs/resource-store';
import type { ApiDependencies } from '../../dependencies';

/** What the budgets use cases need. */
export interface BudgetsDeps {
  /** Read contexts and changes (the unit of work) for the repositories below. */
  store: ActorStore;
  budgets: BudgetRepository;
  users: UserRepository;
  /** EUR reference rates loaded at boot (conversion of entries in other currencies). */
  rates: RateSource;
  /**
   * Remembers a value derived from the user's data until the user's next write (Redis, keyed by the
   * user's watermark); absent: always computed.
   */
  remember?: <V>(userId: string, key: string, compute: () => Promise<V>) => Promise<V>;
}

export function budgetsDepsOf(deps: ApiDependencies): BudgetsDeps {
  return {
    store: deps.store,
    budgets: deps.repos.budgets,
    users: deps.repos.users,
    rates: deps.rates,
    remember: async (userId, key, compute) =>
      deps.resourceApi.rememberAtWatermark(key, await deps.store.watermark(userId), compute),
  };
}
