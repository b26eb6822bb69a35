import { DataSource, MigrationInterface } from 'typeorm';
import { runWithXactLock } from './singleton-lock';

type MigrationClass = new () => MigrationInterface;

export interface MigrationSet {
  /** Which part of the system owns these tables (resources, auth), for messages. */
  name: string;
  /** Each set keeps its own history table, so services own their tables without knowing each other's. */
  tableName: string;
  migrations: MigrationClass[];
}

/**
 * Every process that migrates takes this advisory lock first, so services starting together never race. It is
 * transaction-level, held by an open transaction on its own connection while the migrations run on others
 * (runWithXactLock), so it also holds through a pooler.
 */
const MIGRATION_LOCK_KEY = 7_310_420_001;

/** Applies the pending migrations of each set in order, each in its own transaction. Returns the names applied. */
export async function runMigrations(url: string, sets: MigrationSet[]): Promise<string[]> {
  const applied: string[] = [];
  const lockSource = new DataSource({ type: 'postgres', url, poolSize: 1 });
  await lockSource.initialize();
  try {
    await runWithXactLock(
      lockSource,
      MIGRATION_LOCK_KEY,
      async () => {
        for (const set of sets) applied.push(...(await runMigrationSet(url, set)));
      },
      undefined,
      true,
    );
  } finally {
    await lockSource.destroy();
  }
  return applied;
}

async function runMigrationSet(url: string, set: MigrationSet): Promise<string[]> {
  const source = new DataSource({
    type: 'postgres',
    url,
    poolSize: 1,
    migrations: set.migrations,
    migrationsTableName: set.tableName,
    migrationsTransactionMode: 'each',
  });
  await source.initialize();
  try {
    const done = await source.runMigrations({ transaction: 'each' });
    return done.map((migration) => `${set.name}: ${migration.name}`);
  } finally {
    await source.destroy();
  }
}
