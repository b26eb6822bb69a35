import type { DataSource } from 'typeorm';

/**
 * Session-level Postgres advisory locks: work that one process at a time may do across every instance
 * (the worker's sweeper). A lock held elsewhere makes the caller skip, not wait.
 */
export class AdvisoryLocks {
  constructor(private readonly source: DataSource) {}

  /** Runs `work` while holding lock `key`, on one connection; undefined, without running it, when busy. */
  async runIfFree<T>(key: number, work: () => Promise<T>): Promise<T | undefined> {
    const runner = this.source.createQueryRunner();
    try {
      const [{ locked }] = await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [key]);
      if (!locked) return undefined;
      try {
        return await work();
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [key]);
      }
    } finally {
      await runner.release();
    }
  }
}
