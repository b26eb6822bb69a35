import type { Snapshot, SyncedRecord } from './sync-types';
import { handleOf, transactionOf, type UserChange, type UserRead } from './user-change';

/**
 * The revision log of one kind of resource (`resource_revisions`): every state an object was written in,
 * by its `modified` time, so that a later write based on that `modified` can still merge three-way.
 */
export class RevisionLog<T extends SyncedRecord> {
  constructor(
    /** The endpoint name (`categories`). */
    private readonly kind: string,
    private readonly toSnapshot: (record: T) => Snapshot,
  ) {}

  async find(read: UserRead, id: string, modifiedAt: Date): Promise<Snapshot | undefined> {
    const rows: Array<{ snapshot: Snapshot }> = await handleOf(read).query(
      `SELECT snapshot FROM resource_revisions WHERE kind = $1 AND object_id = $2 AND modified_at = $3 AND user_id = $4`,
      [this.kind, id, modifiedAt, read.userId],
    );
    return rows[0]?.snapshot;
  }

  /** Records several states in one statement (a batch insert, or the slices of a bulk update). */
  async recordMany(change: UserChange, records: T[]): Promise<void> {
    await transactionOf(change).query(
      `INSERT INTO resource_revisions (kind, object_id, modified_at, user_id, snapshot)
       SELECT $1, r.id, r.modified_at, $2, r.snapshot
       FROM unnest($3::bigint[], $4::timestamptz[], $5::jsonb[]) AS r (id, modified_at, snapshot)
       ON CONFLICT DO NOTHING`,
      [
        this.kind,
        change.userId,
        records.map((record) => record.id),
        records.map((record) => record.modifiedAt),
        records.map((record) => JSON.stringify(this.toSnapshot(record))),
      ],
    );
  }

  async record(change: UserChange, record: T): Promise<void> {
    await transactionOf(change).query(
      `INSERT INTO resource_revisions (kind, object_id, modified_at, user_id, snapshot) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING`,
      [this.kind, record.id, record.modifiedAt, change.userId, JSON.stringify(this.toSnapshot(record))],
    );
  }
}
