import type { DataSource } from 'typeorm';

/**
 * Runs `work` while holding the transaction-level advisory lock `key`, or answers `busy` at once when another
 * process holds it: singleton work (one pass at a time across every process).
 *
 * The lock is taken with `pg_try_advisory_xact_lock` in a transaction that stays open on one connection of
 * `source` while `work` runs (on other connections), and ends with it (rollback). A session-level lock would
 * not survive a pooler in transaction mode: PgBouncer hands the server connection to another client after each
 * statement, so the unlock could run on a different server session and the lock would leak there. An open
 * transaction pins its server connection, so this form works directly and through PgBouncer alike. The
 * transaction only holds the lock (no snapshot is kept between statements at READ COMMITTED).
 */
export async function runWithXactLock<T, B>(
  source: DataSource,
  key: number,
  work: () => Promise<T>,
  busy: B,
  wait = false,
): Promise<T | B> {
  const runner = source.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    if (wait) await runner.query('SELECT pg_advisory_xact_lock($1)', [key]);
    else {
      const [{ locked }] = await runner.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [key]);
      if (!locked) return busy;
    }
    return await work();
  } finally {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    await runner.release();
  }
}
