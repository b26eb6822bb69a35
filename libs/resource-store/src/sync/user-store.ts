import type { DataSource } from 'typeorm';
import { readListVersion, readWatermark, withUserChange } from './change-sequence';
import { type UserChange, type UserRead, userRead } from './user-change';

/**
 * Where a service's use cases get their contexts (built once in its dependencies.ts): a read context on
 * the pool, or a change (the unit of work of a write). The database handle stays inside the store.
 */
export class UserStore {
  constructor(private readonly source: DataSource) {}

  /** Reads of the user on the pool (each statement its own snapshot). */
  read(userId: string): UserRead {
    return userRead(this.source, userId);
  }

  /** Runs `work` as one change of the user (see withUserChange). */
  change<T>(userId: string, work: (change: UserChange) => Promise<T>): Promise<T> {
    return withUserChange(this.source, userId, work);
  }

  /** The user's current sync watermark (0 before any change). */
  watermark(userId: string): Promise<string> {
    return readWatermark(this.source, userId);
  }

  /** What every list representation of the user depends on (see readListVersion). */
  listVersion(userId: string): Promise<string> {
    return readListVersion(this.source, userId);
  }
}
