import 'reflect-metadata';
import { DataSource, EntitySchema, MixedList } from 'typeorm';
import { useFastTimestamps } from './pg-timestamps';
import { allowPreparedStatements } from './prepared-query';

export interface CreateDataSourceOptions {
  url: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities?: MixedList<Function | string | EntitySchema>;
  /** Pool size per process; two cores rarely need more. */
  poolSize?: number;
  applicationName?: string;
  timeouts?: DatabaseTimeouts;
  /** Run the store's hot reads as named prepared statements (prepared-query.ts); off behind a transaction pooler. */
  preparedStatements?: boolean;
}

export interface DatabaseTimeouts {
  /** Server-side `statement_timeout`; the request that ran it gets a 503. */
  statementTimeoutMs: number;
  /** Waiting for a pooled or new connection longer than this fails (a 503), instead of queueing forever. */
  connectTimeoutMs: number;
  /**
   * Also give up client-side a second after the statement timeout: a frozen or unreachable server never
   * answers, so only the client can end the wait. Export streams FETCH batch by batch, each fetch timed.
   */
  clientSide?: boolean;
}

/** The timeouts of a service's config (libs/config databaseShape). */
export function databaseTimeouts(
  config: { DATABASE_STATEMENT_TIMEOUT_MS: number; DATABASE_CONNECT_TIMEOUT_MS: number },
  clientSide = true,
): DatabaseTimeouts {
  return {
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    clientSide,
  };
}

function poolOptions(timeouts: DatabaseTimeouts | undefined): Record<string, number> {
  if (!timeouts) return { connectionTimeoutMillis: 5_000 };
  return {
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    statement_timeout: timeouts.statementTimeoutMs,
    ...(timeouts.clientSide === false ? {} : { query_timeout: timeouts.statementTimeoutMs + 1_000 }),
  };
}

/**
 * A TypeORM data source over pg. Schema changes come only from committed migrations:
 * `synchronize` is off everywhere, tests included.
 */
export function createDataSource(options: CreateDataSourceOptions): DataSource {
  useFastTimestamps();
  const dataSource = new DataSource({
    type: 'postgres',
    url: options.url,
    entities: options.entities ?? [],
    synchronize: false,
    migrationsRun: false,
    logging: false,
    poolSize: options.poolSize ?? 10,
    applicationName: options.applicationName,
    extra: poolOptions(options.timeouts),
  });
  if (options.preparedStatements) allowPreparedStatements(dataSource);
  return dataSource;
}

/**
 * DATABASE_PREPARED_STATEMENTS: `on`, `off`, or `auto` (on unless DATABASE_DIRECT_URL is set, which says
 * DATABASE_URL is a pooler that may give each transaction another server connection).
 */
export function preparedStatementsWanted(config: {
  DATABASE_PREPARED_STATEMENTS: string;
  DATABASE_DIRECT_URL?: string;
}): boolean {
  if (config.DATABASE_PREPARED_STATEMENTS === 'auto') return config.DATABASE_DIRECT_URL === undefined;
  return config.DATABASE_PREPARED_STATEMENTS === 'on';
}

/** A data source of `options`, connected (its pool open): the primary's and the replica's. */
export async function openDataSource(options: CreateDataSourceOptions): Promise<DataSource> {
  const dataSource = createDataSource(options);
  await dataSource.initialize();
  return dataSource;
}
