import {
  type Actor,
  type ActorStore,
  type PlainEntriesCreated,
  type PlainEntryWrite,
  plainEntriesInsert,
} from '@pfs/resource-store';

/** At most this many entries go in one change (a full batch POST is 500). */
const MAX_ENTRIES = 1_000;

interface Waiting {
  writes: PlainEntryWrite[];
  resolve(created: PlainEntriesCreated | undefined): void;
  reject(error: unknown): void;
}

/**
 * Writes checked plain entries (createPlainEntries) as one-trip changes, one change of a user (and application)
 * at a time: the writes of that user that arrive while one of theirs is being written go together as the next
 * change (one claim, one statement, one commit), each request still answered with its own entries.
 *
 * Why: a user's writes are serialised on the user's write lock, which is held to the end of the commit, WAL
 * flush included (1-3 ms here), so one user's 16 connections could not pass about one write per flush however
 * cheap the write; written together they share the claim, the statement, its triggers and the flush, as
 * `pgbench`'s clients share theirs (group commit). Writes that went together share one change sequence number,
 * as the entries of one batch POST do: a `since` sync sees all of them or none. Hand-written (about 40 lines):
 * DataLoader batches by event-loop tick, not by "while the previous write of this key is in flight".
 *
 * Each request keeps its own outcome: if the change fails, each of its requests is written again alone (one
 * request's bad data fails only that request); if a reference changed under the lock, every request of the
 * change answers `undefined` and takes the ordinary path, which names the field or writes it.
 */
export class PlainEntryQueue {
  /** Per user and application: the requests waiting for the change in flight (the key exists while one is). */
  private readonly waiting = new Map<string, Waiting[]>();

  constructor(private readonly store: ActorStore) {}

  write(actor: Actor, writes: PlainEntryWrite[]): Promise<PlainEntriesCreated | undefined> {
    return new Promise((resolve, reject) => {
      const key = JSON.stringify([actor.userId, actor.app ?? null]);
      const queue = this.waiting.get(key);
      if (queue) {
        queue.push({ writes, resolve, reject });
        return;
      }
      this.waiting.set(key, []);
      void this.drain(key, actor, [{ writes, resolve, reject }]);
    });
  }

  private async drain(key: string, actor: Actor, first: Waiting[]): Promise<void> {
    for (let group = first; group.length; group = nextGroup(this.waiting.get(key)!)) {
      await this.writeTogether(actor, group);
    }
    // Nothing waits (no await since the queue was found empty): the next request starts a change at once.
    this.waiting.delete(key);
  }

  /** Writes a group as one change and answers each request its own entries, in the order it sent them. */
  private async writeTogether(actor: Actor, group: Waiting[]): Promise<void> {
    let created: PlainEntriesCreated | undefined;
    let written: Promise<void>;
    try {
      const writes = group.flatMap((item) => item.writes);
      // The next change starts at this one's commit; its requests are answered once the bookkeeping after the
      // commit (the list-version signal) is done, so the user's queue never waits for that Redis round trip.
      ({ result: created, written } = await this.store.changeInOneTripCommitted(
        actor,
        plainEntriesInsert(actor, writes),
      ));
    } catch (error) {
      if (group.length === 1 || !isDataError(error)) {
        // Not one request's data (a lost connection, a timeout, a store outage): the change may even have
        // committed before its answer was lost, so writing each again could write it twice. Each request gets
        // the error, as a request written alone would.
        for (const item of group) item.reject(error);
        return;
      }
      // One request's data may be what failed: each alone, so each gets its own outcome.
      for (const item of group) await this.writeTogether(actor, [item]);
      return;
    }
    const done = created;
    void written.then(() => {
      let at = 0;
      for (const item of group) {
        const entries = done?.entries.slice(at, (at += item.writes.length));
        item.resolve(done && { entries: entries!, settings: done.settings });
      }
    });
  }
}

/**
 * Postgres refused the statement for a value it holds (SQLSTATE class 22, data exception: an amount out of range;
 * class 23, integrity constraint violation): the statement did not run, nothing was written.
 */
function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.length === 5 && (code.startsWith('22') || code.startsWith('23'));
}

/** The requests of the next change: the first waiting, and those after it while the change stays within MAX_ENTRIES. */
function nextGroup(queue: Waiting[]): Waiting[] {
  let size = 0;
  for (let entries = 0; size < queue.length; size++) {
    entries += queue[size].writes.length;
    if (size > 0 && entries > MAX_ENTRIES) break;
  }
  return queue.splice(0, size);
}
