import type { RateSource } from '@pfs/money';
import { BudgetRepository, readWatermark, type UserRepository } from '@pfs/resource-store';
import type { DataSource } from 'typeorm';
import type { ApiDependencies } from '../../dependencies';

/** What the budgets use cases need. */
export interface BudgetsDeps {
  dataSource: DataSource;
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
    dataSource: deps.dataSource,
    budgets: new BudgetRepository(deps.dataSource),
    users: deps.users,
    rates: deps.rates,
    remember: async (userId, key, compute) =>
      deps.resourceApi.rememberAtWatermark(key, await readWatermark(deps.dataSource, userId), compute),
  };
}
