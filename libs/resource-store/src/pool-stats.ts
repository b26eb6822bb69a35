import type { DataSource } from 'typeorm';

interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** The pg pool's own counters behind a TypeORM data source (no query), for the pool gauge; undefined when closed. */
export function poolStatsOf(
  dataSource: DataSource,
): { total: number; idle: number; waiting: number } | undefined {
  if (!dataSource.isInitialized) return undefined;
  const pool = (dataSource.driver as unknown as { master?: PgPool }).master;
  if (!pool) return undefined;
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}
