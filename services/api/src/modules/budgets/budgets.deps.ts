import type { RateSource } from '@pfs/money';
import { BudgetRepository, type UserRepository } from '@pfs/resource-store';
import type { DataSource } from 'typeorm';
import type { ApiDependencies } from '../../dependencies';

/** What the budgets use cases need. */
export interface BudgetsDeps {
  dataSource: DataSource;
  budgets: BudgetRepository;
  users: UserRepository;
  /** EUR reference rates loaded at boot (conversion of entries in other currencies). */
  rates: RateSource;
}

export function budgetsDepsOf(deps: ApiDependencies): BudgetsDeps {
  return {
    dataSource: deps.dataSource,
    budgets: new BudgetRepository(deps.dataSource),
    users: deps.users,
    rates: deps.rates,
  };
}
