import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dropDatabase, ensureDatabase } from '../src/ensure-database';
import { resourceMigrations } from '../src/migrations';
import { runMigrations } from '../src/run-migrations';

/**
 * Migration 1764700000000 (entries.presented_line) on a table that already holds entries. It rewrites the
 * table under its lock, which takes about 22 s a million entries (docs/operations.md), so it must not be bound
 * by a `statement_timeout` the role or database sets for the services (docs/scaling.md sets 30 s on the role
 * behind PgBouncer); waiting for the table's lock counts toward that timeout too, which is how the test makes a
 * statement of the migration outlast one without a million rows. Down and up again must give the same lines.
 */
const url = `${process.env.DATABASE_URL!}_lines`;
const name = 'StoreEntryPresentedLines1764700000000';
const before = { ...resourceMigrations, migrations: resourceMigrations.migrations.slice(0, -1) };
let client: Client;

beforeAll(async () => {
  expect(new resourceMigrations.migrations[resourceMigrations.migrations.length - 1]().name).toBe(name);
  await dropDatabase(url);
  await ensureDatabase(url);
  await runMigrations(url, [before]);
  client = new Client({ connectionString: url });
  await client.connect();
  await client.query(`INSERT INTO users (email) VALUES ('lines@example.test')`);
  await client.query(
    `INSERT INTO accounts (user_id, name, currency, modified_at, change_seq) SELECT id, 'Cash', 'EUR', now(), 1 FROM users`,
  );
  await client.query(
    `INSERT INTO entries (user_id, account_id, amount, currency, rate, account_amount, date, description,
       modified_at, change_seq)
     SELECT a.user_id, a.id, g * -1.25, 'EUR', 1, g * -1.25, date '2025-01-01' + g, 'e' || g,
       date_trunc('milliseconds', clock_timestamp()), 1 + g
     FROM accounts a, generate_series(1, 50) g`,
  );
}, 60_000);

afterAll(async () => {
  await client?.end();
  await dropDatabase(url);
});

const lines = async () =>
  (
    await client.query<{ id: string; line: string | null }>(
      `SELECT id::text AS id, presented_line AS line FROM entries ORDER BY id`,
    )
  ).rows;

describe('migration 1764700000000 on a populated entries table', () => {
  it('when the database bounds statements and the table is busy, then it still backfills every entry, and down then up gives the same lines', async () => {
    await client.query(`ALTER DATABASE "${url.split('/').pop()}" SET statement_timeout = '1s'`);
    // A reader holds the table for longer than that (an export's cursor, a long report).
    const reader = new Client({ connectionString: url });
    await reader.connect();
    await reader.query(`BEGIN; LOCK TABLE entries IN ACCESS SHARE MODE`);
    const released = new Promise((resolve) => setTimeout(resolve, 2_500)).then(() => reader.query('COMMIT'));
    try {
      await expect(runMigrations(url, [resourceMigrations])).resolves.toEqual([`resources: ${name}`]);
    } finally {
      await released;
      await reader.end();
    }
    const first = await lines();
    expect(first).toHaveLength(50);
    expect(first.filter((row) => row.line === null)).toEqual([]);
    expect(first[0].line).toMatch(/^2 \d+ \d+ \{"id":"\d+","amount":-1.25,"currency":\{"code":"EUR",/);

    const source = new DataSource({
      type: 'postgres',
      url,
      migrations: resourceMigrations.migrations,
      migrationsTableName: resourceMigrations.tableName,
    });
    await source.initialize();
    try {
      await source.undoLastMigration({ transaction: 'each' });
    } finally {
      await source.destroy();
    }
    const columns = await client.query(
      `SELECT 1 FROM information_schema.columns WHERE table_name = 'entries' AND column_name = 'presented_line'`,
    );
    expect(columns.rowCount).toBe(0);
    await runMigrations(url, [resourceMigrations]);
    expect(await lines()).toEqual(first);
  }, 60_000);
});
