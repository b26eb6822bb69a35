import type { DataSource, EntitySchema, MixedList } from 'typeorm';
import { DatabaseTimeouts, databaseTimeouts, openDataSource, preparedStatementsWanted } from './data-source';
import { ensureDatabase } from './ensure-database';
import { MigrationSet, runMigrations } from './run-migrations';

export interface OpenDatabaseOptions {
  url: string;
  /**
   * Postgres itself (DATABASE_DIRECT_URL) when `url` is a pooler: the database is created and migrated over
   * it. Unset: `url`.
   */
  directUrl?: string;
  /** Migration sets this service owns or relies on, applied in order before the data source opens. */
  migrationSets: MigrationSet[];
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  applicationName: string;
  timeouts?: DatabaseTimeouts;
  preparedStatements?: boolean;
  /** Told the names of the migrations applied, when there were any. */
  onMigrated?: (applied: string[]) => void;
}

/**
 * The start-up sequence every service shares: create the database if missing and migrate (over the direct
 * URL), then open the pool (over `url`, which may be PgBouncer in transaction mode).
 */
export async function openDatabase(options: OpenDatabaseOptions): Promise<DataSource> {
  const directUrl = options.directUrl ?? options.url;
  await ensureDatabase(directUrl);
  const applied = await runMigrations(directUrl, options.migrationSets);
  if (applied.length) options.onMigrated?.(applied);
  return openDataSource(options);
}

/** The database settings every service parses (serviceShape in @pfs/config). */
export interface ServiceDatabaseConfig {
  DATABASE_URL: string;
  DATABASE_DIRECT_URL?: string;
  DATABASE_STATEMENT_TIMEOUT_MS: number;
  DATABASE_CONNECT_TIMEOUT_MS: number;
  DATABASE_PREPARED_STATEMENTS: string;
}

/**
 * A service's database (api, auth, worker): `openDatabase` with the service's URLs and timeouts from its
 * config, the migrations it relies on, and the names of those applied logged once.
 */
export function openServiceDatabase(
  config: ServiceDatabaseConfig,
  logger: { info(details: object, message: string): void },
  service: Pick<OpenDatabaseOptions, 'migrationSets' | 'entities' | 'applicationName'>,
): Promise<DataSource> {
  return openDatabase({
    ...service,
    url: config.DATABASE_URL,
    directUrl: config.DATABASE_DIRECT_URL,
    timeouts: databaseTimeouts(config),
    preparedStatements: preparedStatementsWanted(config),
    onMigrated: (applied) => logger.info({ applied }, 'migrations applied'),
  });
}
