import { allMigrationSets, authEntities } from '@pfs/auth';
import { openDatabase, resourceEntities } from '@pfs/resource-store';
import type { DataSource } from 'typeorm';
import type { CliConfig } from '../cli-context';

/** Opens a migrated database for one command and always closes it. */
export async function withDataSource<T>(
  config: CliConfig,
  run: (dataSource: DataSource) => Promise<T>,
): Promise<T> {
  const dataSource = await openDatabase({
    url: config.DATABASE_URL,
    migrationSets: allMigrationSets,
    entities: [...resourceEntities, ...authEntities],
    applicationName: 'pfs-cli',
  });
  try {
    return await run(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
