import type { ExportStatus, ExportType } from '@pfs/contracts';
import type { DataSource } from 'typeorm';
import { transactionOf, type UserChange, type UserRead, userRead } from '../sync/user-change';
import { countAttempt, moveStatus } from './job-status-moves';
import { PageRequest, PageResult, RawRow, ResourceTable } from '../sync/resource-table';
import { ExportProgress, ExportRecord, exportsTable, NewExport, PROGRESS_COLUMNS } from './exports-table';

export type { ExportProgress, ExportRecord, NewExport } from './exports-table';

export interface ExportListFilters {
  status?: ExportStatus;
  type?: ExportType;
}

export { exportsTable };

/**
 * Exports of a user. Reads and the one client write (`seen`) follow the shared resource conventions;
 * the worker moves the status with `advance`, a conditional update, so a move happens once even when
 * two processes race on the same export. A user's reads take the user's `UserRead`, writes the caller's
 * `UserChange` (one change sequence each); the sweepers' cross-user reads (`findExpired`, `findUnfinished`)
 * use the pool.
 */
export class ExportRepository {
  constructor(private readonly source: DataSource) {}

  async create(change: UserChange, input: NewExport): Promise<ExportRecord> {
    const rows: RawRow[] = await transactionOf(change).query(
      `INSERT INTO exports (user_id, type, resources, formats, filters, from_date, to_date, change_seq, modified_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, date_trunc('milliseconds', clock_timestamp()))
       RETURNING id::text AS id`,
      [
        change.userId,
        input.type,
        input.resources,
        input.formats,
        input.filters,
        input.from,
        input.to,
        change.changeSeq,
      ],
    );
    await exportsTable.recordRevisions(change, [String(rows[0].id)]);
    return (await exportsTable.findById(change, String(rows[0].id)))!;
  }

  /** PUT /exports/{id}: the layer's guarded update (modified checks, merges); only `seen` is written. */
  update(
    change: UserChange,
    id: string,
    decide: Parameters<ResourceTable<ExportRecord>['updateGuarded']>[2],
  ): Promise<ExportRecord | undefined> {
    return exportsTable.updateGuarded(change, id, decide);
  }

  findById(
    read: UserRead,
    id: string,
    options: { includeDeleted?: boolean } = {},
  ): Promise<ExportRecord | undefined> {
    return exportsTable.findById(read, id, options);
  }

  list(
    read: UserRead,
    request: PageRequest,
    filters: ExportListFilters = {},
  ): Promise<PageResult<ExportRecord>> {
    const conditions = [];
    if (filters.status) conditions.push((p: (v: unknown) => string) => `t.status = ${p(filters.status)}`);
    if (filters.type) conditions.push((p: (v: unknown) => string) => `t.type = ${p(filters.type)}`);
    return exportsTable.list(read, request, conditions);
  }

  /** Sets `seen`; a no-op write (same value) changes nothing, so sync sees no change. */
  async setSeen(change: UserChange, id: string, seen: boolean): Promise<ExportRecord | undefined> {
    const current = await exportsTable.findById(change, id, { forUpdate: true });
    if (!current || current.seen === seen) return current;
    return exportsTable.update(change, id, { seen });
  }

  /**
   * Moves the status from one of `from` to `to`, with the given fields, in the caller's change.
   * Returns the new record, or undefined when the export is no longer in a `from` state (someone else moved it).
   */
  async advance(
    change: UserChange,
    id: string,
    from: readonly ExportStatus[],
    to: ExportStatus,
    progress: ExportProgress = {},
  ): Promise<ExportRecord | undefined> {
    const columns = Object.entries(progress).map(([field, value]): [string, unknown] => [
      PROGRESS_COLUMNS[field as keyof ExportProgress],
      value,
    ]);
    return moveStatus(exportsTable, change, id, { from, to, columns });
  }

  /** Counts a processing attempt (not a change clients see: no change sequence). */
  countAttempt(read: UserRead, id: string): Promise<void> {
    return countAttempt(exportsTable, read, id);
  }

  /** Exports whose file has outlived `expires_at`, oldest first. */
  async findExpired(now: Date, limit: number): Promise<ExportRecord[]> {
    const rows: RawRow[] = await this.source.query(
      `SELECT t.id::text AS id, t.user_id FROM exports t
       WHERE t.expires_at <= $1 AND t.storage_key IS NOT NULL AND NOT t.deleted
       ORDER BY t.expires_at LIMIT $2`,
      [now, limit],
    );
    const found = await Promise.all(
      rows.map((row) => exportsTable.findById(userRead(this.source, String(row.user_id)), String(row.id))),
    );
    return found.filter((record): record is ExportRecord => record !== undefined);
  }

  /** Unfinished exports untouched since `before` (their job may have been lost): ids to queue again. */
  async findUnfinished(before: Date, limit: number): Promise<Array<{ userId: string; id: string }>> {
    const rows: RawRow[] = await this.source.query(
      `SELECT t.id::text AS id, t.user_id::text AS user_id FROM exports t
       WHERE t.status IN ('generating', 'generated', 'sending') AND NOT t.deleted AND t.modified_at < $1
       ORDER BY t.modified_at LIMIT $2`,
      [before, limit],
    );
    return rows.map((row) => ({ userId: String(row.user_id), id: String(row.id) }));
  }

  /** After its file is removed, an expired export is deleted (soft: sync clients learn it is gone). */
  async markExpired(change: UserChange, id: string): Promise<void> {
    await transactionOf(change).query(
      `UPDATE exports SET storage_key = NULL, download_url = NULL WHERE user_id = $1 AND id = $2`,
      [change.userId, id],
    );
    await exportsTable.softDelete(change, [id]);
  }
}
