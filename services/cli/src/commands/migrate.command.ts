import { allMigrationSets } from '@pfs/auth';
import { ensureDatabase, runMigrations } from '@pfs/resource-store';
import type { CliConfig } from '../cli-context';

/** `migrate`: creates the database if needed and applies every pending migration. */
export async function migrateCommand(config: CliConfig): Promise<unknown> {
  await ensureDatabase(config.DATABASE_URL);
  const applied = await runMigrations(config.DATABASE_URL, allMigrationSets);
  return { applied };
}
