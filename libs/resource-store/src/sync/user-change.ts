import type { TraceContext } from '@pfs/logger';
import type { DataSource, EntityManager } from 'typeorm';
import type { ReadRouting } from '../replica/read-routing';

/**
 * The key under which a context carries its database handle. It is exported from this file for the store's
 * own repositories only (the package index does not export it): code above the store holds contexts and
 * passes them on, it never reaches the transaction behind them.
 */
export const HANDLE: unique symbol = Symbol('pfs.store.handle');
/** Where a pool read may be routed for heavy reads (a replica, read-your-writes). Store code only. */
export const ROUTING: unique symbol = Symbol('pfs.store.routing');

/**
 * On whose behalf store work runs: the user (every query is scoped to the user) and, for a request, the
 * application it acts through (the OAuth client id, or `personal` for personal tokens): `extra` is private
 * to the user and the application (spec, "Common field rules"). Without an application (the worker, the
 * CLI, the API's own timers) `extra` is read and written as stored.
 */
export interface Actor {
  readonly userId: string;
  readonly app?: string;
  /**
   * The request's trace, for the lines the store's callbacks write about this work (a replica fallback, a lost
   * signal after a commit): requests carry their trace explicitly (no async context in the API or auth).
   */
  readonly trace?: TraceContext;
}

/** An actor from a bare user id (no application) or from an actor (a request context). */
export function actorOf(who: string | Actor): Actor {
  return typeof who === 'string' ? { userId: who } : { userId: who.userId, app: who.app, trace: who.trace };
}

/**
 * What a repository read needs: whose data and for which application (the actor) and where to read it (the
 * pool, or the transaction of a change, to read what that change already wrote).
 */
export interface UserRead extends Actor {
  readonly [HANDLE]: DataSource | EntityManager;
  /** Set on the store's pool reads when a replica is configured: heavy reads may go there (routedHandleOf). */
  readonly [ROUTING]?: ReadRouting;
}

/**
 * One unit of work of one user: a transaction that has claimed the user's next change sequence (and so holds
 * the user's write lock). Repositories take it as their single context argument for writes (and, being a
 * read context too, for the reads a write depends on). Every row written in it takes `changeSeq`.
 */
export interface UserChange extends UserRead {
  readonly changeSeq: string;
  readonly [HANDLE]: EntityManager;
  /**
   * Registers work that undoes a side effect outside the database (a stored file) when this change does not
   * commit. Runs after the rollback, in registration order; a failing cleanup is reported to `onCleanupError`.
   */
  onRollback(cleanup: () => Promise<void>): void;
  /**
   * Registers work that must follow the commit of what this change wrote (dropping a cache of it: doing it
   * before the commit would let a concurrent reader cache the old row again). Runs after the commit, before
   * the change's caller gets its result; each piece of work reports its own failure (the write stands).
   */
  afterCommit(work: () => Promise<void>): void;
}

/** What a change registered to run after its rollback or after its commit (inTransaction runs them). */
export interface ChangeHooks {
  rollback: Array<() => Promise<void>>;
  commit: Array<() => Promise<void>>;
}

/** A read context over `source` for `who` (store code and the services' dependencies build these). */
export function userRead(
  source: DataSource | EntityManager,
  who: string | Actor,
  routing?: ReadRouting,
): UserRead {
  const read = { ...actorOf(who), [HANDLE]: source };
  return routing ? { ...read, [ROUTING]: routing } : read;
}

/**
 * The handle for a heavy read (sums, timeline, budget figures): a pool read of a store with a replica goes to
 * the replica once it has replayed the user's last write (ReadRouting); a change's transaction reads itself.
 */
export async function routedHandleOf(context: UserRead): Promise<DataSource | EntityManager> {
  const routing = context[ROUTING];
  const handle = context[HANDLE];
  if (!routing || handle !== routing.primary) return handle;
  return routing.sourceForUser(context.userId, context.trace);
}

/** A read context on the handle routedHandleOf chose, for repositories built on ResourceTable. */
export async function routedRead(context: UserRead): Promise<UserRead> {
  const handle = await routedHandleOf(context);
  return handle === context[HANDLE] ? context : userRead(handle, context);
}

/** The database handle of a context: store code only. */
export function handleOf(context: UserRead): DataSource | EntityManager {
  return context[HANDLE];
}

/** The transaction of a change: store code only. */
export function transactionOf(change: UserChange): EntityManager {
  return change[HANDLE];
}

/** Builds the change of `manager` (a transaction that already claimed `changeSeq`). Store code only. */
export function userChangeOf(
  manager: EntityManager,
  who: string | Actor,
  changeSeq: string,
  hooks: ChangeHooks,
): UserChange {
  return {
    ...actorOf(who),
    changeSeq,
    [HANDLE]: manager,
    onRollback: (cleanup) => void hooks.rollback.push(cleanup),
    afterCommit: (work) => void hooks.commit.push(work),
  };
}
