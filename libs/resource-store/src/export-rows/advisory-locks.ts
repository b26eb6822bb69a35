import type { DataSource } from 'typeorm';
import { runWithXactLock } from '../singleton-lock';

/**
 * Postgres advisory locks for work that one process at a time may do across every instance (the worker's
 * sweeper). A lock held elsewhere makes the caller skip, not wait. Transaction-level (runWithXactLock), so
 * they hold through PgBouncer in transaction mode.
 */
export class AdvisoryLocks {
  constructor(private readonly source: DataSource) {}

  /** Runs `work` while holding lock `key`; undefined, without running it, when busy. */
  runIfFree<T>(key: number, work: () => Promise<T>): Promise<T | undefined> {
    return runWithXactLock(this.source, key, work, undefined);
  }
}
