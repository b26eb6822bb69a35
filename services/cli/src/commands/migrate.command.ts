import { allMigrationSets } from '@pfs/auth';
import { storeStartup } from '@pfs/http';
import { ensureDatabase, runMigrations } from '@pfs/resource-store';
import type { CliConfig } from '../cli-context';

/**
 * `migrate`: creates the database if needed and applies every pending migration. Waits for Postgres up to
 * STARTUP_RETRY_SECONDS, since a deploy's migration job usually starts alongside its database.
 */
export async function migrateCommand(config: CliConfig): Promise<unknown> {
  // Postgres itself, not a pooler in front of it (DATABASE_DIRECT_URL, docs/scaling.md).
  const url = config.DATABASE_DIRECT_URL ?? config.DATABASE_URL;
  await storeStartup(config.STARTUP_RETRY_SECONDS, () => undefined).postgres(() => ensureDatabase(url));
  const applied = await runMigrations(url, allMigrationSets);
  return { applied };
}
