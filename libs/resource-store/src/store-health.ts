import type { DataSource } from 'typeorm';
import { migrationsCheck } from './pending-migrations';
import { poolStatsOf } from './pool-stats';
import type { MigrationSet } from './run-migrations';

/** The store's side of the health probes: what /health checks and the pool gauge read. */
export interface StoreHealth {
  /** Resolves when Postgres answers a query. */
  postgres(): Promise<unknown>;
  /** Rejects while a migration of the service's sets is pending. */
  migrations(): Promise<unknown>;
  /** The pool's counters, for the pool gauge; undefined when closed. */
  pool(): ReturnType<typeof poolStatsOf>;
}

/** The health probes of a service's data source, which the routes above the store never see. */
export function storeHealth(dataSource: DataSource, sets: MigrationSet[]): StoreHealth {
  return {
    postgres: () => dataSource.query('SELECT 1'),
    migrations: migrationsCheck(dataSource, sets),
    pool: () => poolStatsOf(dataSource),
  };
}
