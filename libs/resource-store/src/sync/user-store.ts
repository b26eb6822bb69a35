import type { TraceContext } from '@pfs/logger';
import type { DataSource } from 'typeorm';
import type { ReadRouting } from '../replica/read-routing';
import { toCustomRates } from '../repositories/user.repository';
import { type RawListState, readWatermark, withUserChange } from './change-sequence';
import { listStateLoader } from './list-state-loader';
import { type OneTripStatement, runOneTripChange } from './one-trip-change';
import type { ListState } from './sync-types';
import { type Actor, type UserChange, type UserRead, userRead } from './user-change';

/**
 * Where a service's use cases get their contexts (built once in its dependencies.ts): a read context on
 * the pool, or a change (the unit of work of a write). The database handle stays inside the store.
 */
export class UserStore {
  private readonly listStates: ReturnType<typeof listStateLoader>;

  /**
   * `routing` (a replica, DATABASE_READ_URL): heavy reads of `read` contexts may go to the replica, and every
   * committed change records the primary's WAL position for the user's next read (read-your-writes).
   * `listVersionMoved`: told after every committed write of the user, before the writer answers (the API's
   * processes hold each user's list version and drop it on this signal: list-version-keys in @pfs/contracts),
   * with the writer's trace when it has one.
   */
  constructor(
    private readonly source: DataSource,
    private readonly routing?: ReadRouting,
    private readonly listVersionMoved?: (userId: string, trace?: TraceContext) => Promise<void>,
  ) {
    this.listStates = listStateLoader(source);
  }

  /** Reads of the user (a bare id, or an actor with its application) on the pool (each statement its own snapshot). */
  read(who: string | Actor): UserRead {
    return userRead(this.source, who, this.routing?.hasReplica ? this.routing : undefined);
  }

  /** Runs `work` as one change of the user (see withUserChange); once committed, its position is recorded. */
  async change<T>(who: string | Actor, work: (change: UserChange) => Promise<T>): Promise<T> {
    const result = await withUserChange(this.source, who, work);
    await this.written(who);
    return result;
  }

  /**
   * Runs a statement a repository built as one change of the user, in one round trip (runOneTripChange);
   * once committed, its position is recorded as `change` does.
   */
  async changeInOneTrip<T>(who: Actor, statement: OneTripStatement<T>): Promise<T> {
    const { result, written } = await this.changeInOneTripCommitted(who, statement);
    await written;
    return result;
  }

  /**
   * `changeInOneTrip`, resolved at its commit: `written` settles (never rejects) when the bookkeeping after
   * the commit (`written`: a Redis round trip) is done, and the caller awaits it before answering. For a
   * queue of a user's changes (the API's plain-entry-queue.ts): its next change need not wait for that.
   */
  async changeInOneTripCommitted<T>(
    who: Actor,
    statement: OneTripStatement<T>,
  ): Promise<{ result: T; written: Promise<void> }> {
    const result = await runOneTripChange(this.source, who.userId, statement);
    return { result, written: this.written(who).catch(() => undefined) };
  }

  /**
   * After a write of the user committed (`change`, `changeInOneTrip`, and writes outside them: an idempotent
   * POST, a profile write, an export's notification). Awaited by the writer before it answers, so a request
   * sent after the answer finds every process's held list version dropped.
   */
  async written(who: string | Actor): Promise<void> {
    const { userId, trace } = typeof who === 'string' ? { userId: who, trace: undefined } : who;
    if (!this.routing) return this.listVersionMoved?.(userId, trace);
    await Promise.all([this.routing.recordWrite(userId, trace), this.listVersionMoved?.(userId, trace)]);
  }

  /** The user's current sync watermark (0 before any change). */
  watermark(userId: string): Promise<string> {
    return readWatermark(this.source, userId);
  }

  /**
   * What every list representation of the user depends on (see readListStates), with the main currency and
   * custom rates a list presents with, read from the same row in the same round trip (a page that must be
   * presented needs no second read of the users row). Concurrent requests' reads go as one statement
   * (list-state-loader.ts).
   */
  async listState(userId: string): Promise<ListState> {
    return toListState(await this.listStates.load(userId));
  }
}

/** The list state as lists use it, from its columns (readListStates, or a page statement that read it). */
export function toListState(state: RawListState): ListState {
  return {
    version: state.version,
    settings: { main: state.currency ?? 'EUR', customRates: toCustomRates(state.customRates) },
  };
}

export type { ListState };

/**
 * The store as a service that acts for applications sees it (the API): contexts are opened for an actor, a
 * request context or `{ userId }` for work outside any application, never from a bare user id, so no
 * request's work can lose the application its `extra` belongs to.
 */
export interface ActorStore {
  read(actor: Actor): UserRead;
  change<T>(actor: Actor, work: (change: UserChange) => Promise<T>): Promise<T>;
  changeInOneTrip<T>(actor: Actor, statement: OneTripStatement<T>): Promise<T>;
  changeInOneTripCommitted<T>(
    actor: Actor,
    statement: OneTripStatement<T>,
  ): Promise<{ result: T; written: Promise<void> }>;
  watermark(userId: string): Promise<string>;
  listState(userId: string): Promise<ListState>;
}
