import { allMigrationSets, authEntities } from '@pfs/auth';
import { createDataSource, ensureDatabase, resourceEntities, runMigrations } from '@pfs/resource-store';
import type { DataSource } from 'typeorm';
import type { CliConfig } from '../cli-context';

/** Opens a migrated database for one command and always closes it. */
export async function withDataSource<T>(
  config: CliConfig,
  run: (dataSource: DataSource) => Promise<T>,
): Promise<T> {
  await ensureDatabase(config.DATABASE_URL);
  await runMigrations(config.DATABASE_URL, allMigrationSets);
  const dataSource = createDataSource({
    url: config.DATABASE_URL,
    entities: [...resourceEntities, ...authEntities],
    poolSize: 2,
    applicationName: 'pfs-cli',
  });
  await dataSource.initialize();
  try {
    return await run(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
