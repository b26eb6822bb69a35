import type { ExportStatus, ExportType } from '@pfs/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { claimChangeSeq, withUserChange } from '../sync/change-sequence';
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
 * two processes race on the same export.
 */
export class ExportRepository {
  constructor(private readonly source: DataSource) {}

  async create(userId: string, input: NewExport): Promise<ExportRecord> {
    return withUserChange(this.source, userId, async (manager, changeSeq) => {
      const rows: RawRow[] = await manager.query(
        `INSERT INTO exports (user_id, type, resources, formats, filters, from_date, to_date, change_seq, modified_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, date_trunc('milliseconds', clock_timestamp()))
         RETURNING id::text AS id`,
        [userId, input.type, input.resources, input.formats, input.filters, input.from, input.to, changeSeq],
      );
      await exportsTable.recordRevisions(manager, userId, [String(rows[0].id)]);
      return (await exportsTable.findById(manager, userId, String(rows[0].id)))!;
    });
  }

  /** PUT /exports/{id}: the layer's guarded update (modified checks, merges); only `seen` is written. */
  update(
    userId: string,
    id: string,
    decide: Parameters<ResourceTable<ExportRecord>['updateGuarded']>[3],
  ): Promise<ExportRecord | undefined> {
    return exportsTable.updateGuarded(this.source, userId, id, decide);
  }

  findById(
    userId: string,
    id: string,
    options: { includeDeleted?: boolean } = {},
  ): Promise<ExportRecord | undefined> {
    return exportsTable.findById(this.source, userId, id, options);
  }

  list(
    userId: string,
    request: PageRequest,
    filters: ExportListFilters = {},
  ): Promise<PageResult<ExportRecord>> {
    const conditions = [];
    if (filters.status) conditions.push((p: (v: unknown) => string) => `t.status = ${p(filters.status)}`);
    if (filters.type) conditions.push((p: (v: unknown) => string) => `t.type = ${p(filters.type)}`);
    return exportsTable.list(this.source, userId, request, conditions);
  }

  /** Sets `seen`; a no-op write (same value) changes nothing, so sync sees no change. */
  async setSeen(userId: string, id: string, seen: boolean): Promise<ExportRecord | undefined> {
    return withUserChange(this.source, userId, async (manager, changeSeq) => {
      const current = await exportsTable.findById(manager, userId, id, { forUpdate: true });
      if (!current || current.seen === seen) return current;
      return exportsTable.update(manager, userId, id, changeSeq, { seen });
    });
  }

  /**
   * Moves the status from one of `from` to `to`, with the given fields, in one change transaction.
   * Returns the new record, or undefined when the export is no longer in a `from` state (someone else moved it).
   */
  async advance(
    userId: string,
    id: string,
    from: readonly ExportStatus[],
    to: ExportStatus,
    progress: ExportProgress = {},
    manager?: EntityManager,
  ): Promise<ExportRecord | undefined> {
    const run = async (tx: EntityManager) => {
      const changeSeq = await claimChangeSeq(tx, userId);
      const values: unknown[] = [userId, id, from, to, changeSeq];
      const sets = Object.entries(progress).map(([field, value]) => {
        values.push(value);
        return `${PROGRESS_COLUMNS[field as keyof ExportProgress]} = $${values.length}`;
      });
      const rows: RawRow[] = await tx.query(
        `UPDATE exports t SET status = $4, change_seq = $5${sets.map((set) => `, ${set}`).join('')},
           modified_at = GREATEST(date_trunc('milliseconds', clock_timestamp()), t.modified_at + interval '1 millisecond')
         WHERE t.user_id = $1 AND t.id = $2 AND t.status = ANY($3) AND NOT t.deleted
         RETURNING t.id`,
        values,
      );
      if (!rows[0]) return undefined;
      // Each status move is a revision a client may hold; a later PUT of `seen` based on it must merge.
      await exportsTable.recordRevisions(tx, userId, [id]);
      return exportsTable.findById(tx, userId, id);
    };
    return manager ? run(manager) : this.source.transaction(run);
  }

  /** Counts a processing attempt (not a change clients see). */
  async countAttempt(userId: string, id: string): Promise<void> {
    await this.source.query(`UPDATE exports SET attempts = attempts + 1 WHERE user_id = $1 AND id = $2`, [
      userId,
      id,
    ]);
  }

  /** Exports whose file has outlived `expires_at`, oldest first. */
  async findExpired(now: Date, limit: number): Promise<ExportRecord[]> {
    const rows: RawRow[] = await this.source.query(
      `SELECT t.id::text AS id, t.user_id FROM exports t
       WHERE t.expires_at <= $1 AND t.storage_key IS NOT NULL AND NOT t.deleted
       ORDER BY t.expires_at LIMIT $2`,
      [now, limit],
    );
    const found = await Promise.all(rows.map((row) => this.findById(String(row.user_id), String(row.id))));
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
  async markExpired(userId: string, id: string): Promise<void> {
    await withUserChange(this.source, userId, async (manager, changeSeq) => {
      await manager.query(
        `UPDATE exports SET storage_key = NULL, download_url = NULL WHERE user_id = $1 AND id = $2`,
        [userId, id],
      );
      await exportsTable.softDelete(manager, userId, [id], changeSeq);
    });
  }
}
