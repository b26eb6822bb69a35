import type { DataSource } from 'typeorm';
import type { MigrationSet } from './run-migrations';

/**
 * Names of the migrations of `sets` this database has not applied (read from each set's history table).
 * A readiness probe uses it: a process whose schema is behind its code must not take traffic.
 */
export async function pendingMigrations(dataSource: DataSource, sets: MigrationSet[]): Promise<string[]> {
  const pending: string[] = [];
  for (const set of sets) {
    const rows: { name: string }[] = await dataSource.query(`SELECT name FROM "${set.tableName}"`);
    const applied = new Set(rows.map((row) => row.name));
    for (const migration of set.migrations) {
      const name = new migration().name ?? migration.name;
      if (!applied.has(name)) pending.push(`${set.name}: ${name}`);
    }
  }
  return pending;
}

/** A health check: rejects when a migration is pending (or the history cannot be read). */
export function migrationsCheck(dataSource: DataSource, sets: MigrationSet[]): () => Promise<void> {
  return async () => {
    const pending = await pendingMigrations(dataSource, sets);
    if (pending.length) throw new Error(`pending migrations: ${pending.join(', ')}`);
  };
}
