import 'reflect-metadata';
import { DataSource, EntitySchema, MixedList } from 'typeorm';

export interface CreateDataSourceOptions {
  url: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities?: MixedList<Function | string | EntitySchema>;
  /** Pool size per process; two cores rarely need more. */
  poolSize?: number;
  applicationName?: string;
}

/**
 * A TypeORM data source over pg. Schema changes come only from committed migrations:
 * `synchronize` is off everywhere, tests included.
 */
export function createDataSource(options: CreateDataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    entities: options.entities ?? [],
    synchronize: false,
    migrationsRun: false,
    logging: false,
    poolSize: options.poolSize ?? 10,
    applicationName: options.applicationName,
    extra: { connectionTimeoutMillis: 5_000 },
  });
}
