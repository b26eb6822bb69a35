import type { DataSource } from 'typeorm';
import { readListVersion, readWatermark, withUserChange } from './change-sequence';
import { type Actor, type UserChange, type UserRead, userRead } from './user-change';

/**
 * Where a service's use cases get their contexts (built once in its dependencies.ts): a read context on
 * the pool, or a change (the unit of work of a write). The database handle stays inside the store.
 */
export class UserStore {
  constructor(private readonly source: DataSource) {}

  /** Reads of the user (a bare id, or an actor with its application) on the pool (each statement its own snapshot). */
  read(who: string | Actor): UserRead {
    return userRead(this.source, who);
  }

  /** Runs `work` as one change of the user (see withUserChange). */
  change<T>(who: string | Actor, work: (change: UserChange) => Promise<T>): Promise<T> {
    return withUserChange(this.source, who, work);
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

/**
 * The store as a service that acts for applications sees it (the API): contexts are opened for an actor, a
 * request context or `{ userId }` for work outside any application, never from a bare user id, so no
 * request's work can lose the application its `extra` belongs to.
 */
export interface ActorStore {
  read(actor: Actor): UserRead;
  change<T>(actor: Actor, work: (change: UserChange) => Promise<T>): Promise<T>;
  watermark(userId: string): Promise<string>;
  listVersion(userId: string): Promise<string>;
}
