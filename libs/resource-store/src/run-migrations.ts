import { DataSource, MigrationInterface } from 'typeorm';

type MigrationClass = new () => MigrationInterface;

export interface MigrationSet {
  /** Which part of the system owns these tables (resources, auth), for messages. */
  name: string;
  /** Each set keeps its own history table, so services own their tables without knowing each other's. */
  tableName: string;
  migrations: MigrationClass[];
}

/** Every process that migrates takes this advisory lock first, so services starting together never race. */
const MIGRATION_LOCK_KEY = 7_310_420_001;

/** Applies the pending migrations of each set in order, each in its own transaction. Returns the names applied. */
export async function runMigrations(url: string, sets: MigrationSet[]): Promise<string[]> {
  const applied: string[] = [];
  const lockSource = new DataSource({ type: 'postgres', url, poolSize: 1 });
  await lockSource.initialize();
  const lockRunner = lockSource.createQueryRunner();
  try {
    await lockRunner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    for (const set of sets) {
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
        applied.push(...done.map((migration) => `${set.name}: ${migration.name}`));
      } finally {
        await source.destroy();
      }
    }
  } finally {
    await lockRunner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lockRunner.release();
    await lockSource.destroy();
  }
  return applied;
}
