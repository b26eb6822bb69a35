import { claimChangeSeq } from '../sync/change-sequence';
import { handleOf, transactionOf, type UserChange, type UserRead, userRead } from '../sync/user-change';
import { PageRequest, PageResult, RawRow, ResourceTable, SyncedRecord } from '../sync/resource-table';

/** A notification as plain data (the reference's fields: type, action, text, date). */
export interface NotificationRecord extends SyncedRecord {
  userId: string;
  type: string;
  action: string | null;
  text: string;
  exportId: string | null;
  date: Date;
}

export interface NewNotification {
  type: string;
  action: string | null;
  text: string;
  exportId?: string;
  extra?: Record<string, unknown> | null;
}

const notificationsTable = new ResourceTable<NotificationRecord>({
  table: 'notifications',
  kind: 'notifications',
  columns: ['user_id', 'type', 'action', 'text', 'export_id', 'date'],
  toRecord: (row: RawRow) =>
    ResourceTable.withCommonFields(row, {
      userId: String(row.user_id),
      type: String(row.type),
      action: (row.action as string | null) ?? null,
      text: String(row.text),
      exportId: row.export_id === null || row.export_id === undefined ? null : String(row.export_id),
      date: row.date as Date,
    }),
  toSnapshot: () => ({}),
  toColumns: () => ({}),
});

/**
 * The user's notifications; the export worker writes them, clients read and delete them. Reads take the
 * user's `UserRead`, deletions run in the caller's `UserChange` (one change sequence for the whole delete).
 */
export class NotificationRepository {
  /** `written` runs after createForExport's write has committed (UserStore.written: the list version moved). */
  constructor(private readonly written: (userId: string) => Promise<void> = async () => undefined) {}

  list(read: UserRead, request: PageRequest): Promise<PageResult<NotificationRecord>> {
    return notificationsTable.list(read, request);
  }

  findById(read: UserRead, id: string): Promise<NotificationRecord | undefined> {
    return notificationsTable.findById(read, id);
  }

  /** Soft-deletes every live notification of the user in `change`; returns how many there were. */
  async deleteAll(change: UserChange): Promise<number> {
    const rows: Array<{ id: string }> = await transactionOf(change).query(
      `SELECT id::text AS id FROM notifications WHERE user_id = $1 AND NOT deleted`,
      [change.userId],
    );
    return notificationsTable.softDelete(
      change,
      rows.map((row) => row.id),
    );
  }

  /** Soft delete (sync clients learn of it); false when there was no live notification with that id. */
  async delete(change: UserChange, id: string): Promise<boolean> {
    return (await notificationsTable.softDelete(change, [id])) > 0;
  }

  /** Creates a notification about something other than an export (a webhook disabled) in `change`. */
  async create(change: UserChange, input: NewNotification): Promise<NotificationRecord> {
    const rows: RawRow[] = await transactionOf(change).query(
      `INSERT INTO notifications (user_id, type, action, text, extra, change_seq, modified_at)
       VALUES ($1, $2, $3, $4, $5, $6, date_trunc('milliseconds', clock_timestamp())) RETURNING id::text AS id`,
      [change.userId, input.type, input.action, input.text, input.extra ?? null, change.changeSeq],
    );
    return (await notificationsTable.findById(change, String(rows[0].id)))!;
  }

  /**
   * Creates the notification of an export, once: a retried delivery finds the first one instead of
   * notifying twice (one notification per export, enforced by a unique index). It opens its own transaction
   * and claims a change sequence only when it creates the notification (a retry changes nothing), so it takes
   * a read context, not a change.
   */
  async createForExport(
    read: UserRead,
    exportId: string,
    input: NewNotification,
  ): Promise<NotificationRecord> {
    const userId = read.userId;
    let created = false;
    const notification = await handleOf(read).transaction(async (manager) => {
      const existing: RawRow[] = await manager.query(
        `SELECT id::text AS id FROM notifications WHERE export_id = $1 AND user_id = $2`,
        [exportId, userId],
      );
      if (existing[0])
        return (await notificationsTable.findById(userRead(manager, read), String(existing[0].id), {
          includeDeleted: true,
        }))!;
      const changeSeq = await claimChangeSeq(manager, userId);
      created = true;
      const rows: RawRow[] = await manager.query(
        `INSERT INTO notifications (user_id, type, action, text, export_id, extra, change_seq, modified_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, date_trunc('milliseconds', clock_timestamp()))
         ON CONFLICT (export_id) WHERE export_id IS NOT NULL DO NOTHING
         RETURNING id::text AS id`,
        [userId, input.type, input.action, input.text, exportId, input.extra ?? null, changeSeq],
      );
      const id = rows[0]
        ? String(rows[0].id)
        : String(
            (
              await manager.query(`SELECT id::text AS id FROM notifications WHERE export_id = $1`, [exportId])
            )[0].id,
          );
      return (await notificationsTable.findById(userRead(manager, read), id, { includeDeleted: true }))!;
    });
    if (created) await this.written(userId);
    return notification;
  }
}
