import { Client } from 'pg';

/**
 * Makes every test file that calls this with the same `name` run one at a time, whichever jest worker or
 * project runs it: a Postgres session-level advisory lock held from this file's first hook to its last, on a
 * connection of its own straight to Postgres (never through a transaction-mode pooler, where a session lock
 * would not stay with its session).
 *
 * For suites whose subject is global to the shared test database rather than to their own users, such as
 * the sweep of unfinished exports, which acts on every user's exports: two copies of such a file (run
 * directly and again through PgBouncer) running at once would act on each other's rows.
 */
export function oneFileAtATime(name: string, waitMs = 180_000): void {
  let holder: Client | undefined;
  beforeAll(async () => {
    holder = new Client({ connectionString: process.env.DATABASE_DIRECT_URL ?? process.env.DATABASE_URL });
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock(hashtext($1))', [`pfs-test:${name}`]);
  }, waitMs);
  afterAll(async () => {
    await holder?.end();
  });
}
