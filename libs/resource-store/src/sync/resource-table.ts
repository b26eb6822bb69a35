import { isResourceId } from '@pfs/contracts';
import { extraForApp, insertExtraSql, updateExtraSql } from './app-extra';
import { handleOf, transactionOf, type UserChange, type UserRead } from './user-change';
import { type JsonColumn, type JsonPage, jsonPageOf } from './json-page';
import { listPage, type ListPageOptions, listPresentedPage } from './list-page';
import { RevisionLog } from './revision-log';
import { SqlFilter, SqlParams } from './sql-params';
import type {
  DecideUpdate,
  PageRequest,
  PageResult,
  PresentedPageResult,
  RawRow,
  Snapshot,
  SyncedRecord,
} from './sync-types';

export type {
  DecideUpdate,
  PageRequest,
  PageResult,
  PresentedPageResult,
  RawRow,
  Snapshot,
  SyncedRecord,
  TotalCountCache,
} from './sync-types';

export interface ResourceTableOptions<T extends SyncedRecord> {
  table: string;
  /** Names the object kind in resource_revisions; use the endpoint name (`categories`). */
  kind: string;
  /**
   * The resource's own columns (besides the common ones), read by name (each selected as `t.<column>`, so an
   * item may carry a cast and its alias: `date::text AS date`); writes name theirs in `toColumns`.
   */
  columns: readonly string[];
  toRecord(row: RawRow): T;
  /** Optional: `columns` again as exact JSON; given, a list page is read as one JSON value (json-page.ts). */
  jsonColumns?: readonly JsonColumn[];
  /**
   * Optional, with `jsonColumns`: the SQL of a row's whole line of a presented page over alias `t` (its keys and
   * final representation as JSON text, see list-page.ts `listPresentedPage`; NULL for a row the caller
   * presents), given the user id's parameter (and `PageRequest.presentedMain`'s), for `listPresented`.
   */
  presentedLine?: (userParameter: string, mainParameter?: string) => string;
  toSnapshot(record: T): Snapshot;
  toColumns(snapshot: Snapshot): Record<string, unknown>;
}

/** Rows per statement when recording the revisions of a bulk update. */
const REVISION_BATCH = 1_000;

/**
 * The shared SQL of every synced resource table: lists ordered by most recent change (keyset or offset),
 * `since` sync, soft delete, and the revision log that makes three-way merges possible. Resource
 * repositories wrap one of these and add their own filters; nothing here leaks TypeORM objects.
 */
export class ResourceTable<T extends SyncedRecord> {
  /** The columns every read returns (alias `t`), for statements built outside this class (entry-one-trip.ts). */
  readonly selectList: string;
  private readonly jsonPage?: JsonPage;
  private readonly revisions: RevisionLog<T>;

  constructor(readonly options: ResourceTableOptions<T>) {
    this.revisions = new RevisionLog(options.kind, (record) => options.toSnapshot(record));
    this.jsonPage = options.jsonColumns && jsonPageOf(options.table, options.columns, options.jsonColumns);
    this.selectList = [
      't.id::text AS id',
      't.created_at',
      't.modified_at',
      't.change_seq::text AS change_seq',
      't.deleted',
      't.extra',
      ...options.columns.map((column) => `t.${column}`),
    ].join(', ');
  }

  /**
   * Every row read goes through here: `extra` is narrowed to the application of the context (`app`). The row is
   * the driver's own, fresh for each read: narrowed in place (a spread copy of each row was 2% of a cold page).
   */
  private read(row: RawRow, app: string | undefined): T {
    if ('extra' in row) row.extra = extraForApp(row.extra, app);
    return this.options.toRecord(row);
  }

  /** A record of a row read with `selectList`, `extra` narrowed to `app`. */
  recordOf(row: RawRow, app: string | undefined): T {
    return this.read(row, app);
  }

  /**
   * A record of a row: the resource's own fields (`own`, an object literal) with the common columns added to
   * that same object, one by one. Not a spread into a new object: an object spread followed by many
   * properties sends V8 down a slow path (about 10x a row), which a page of 200 rows pays 200 times.
   */
  static withCommonFields<Own extends object>(row: RawRow, own: Own): Own & SyncedRecord {
    const record = own as Own & SyncedRecord;
    record.id = String(row.id);
    record.createdAt = row.created_at as Date;
    record.modifiedAt = row.modified_at as Date;
    record.changeSeq = String(row.change_seq);
    record.deleted = Boolean(row.deleted);
    record.extra = (row.extra as Record<string, unknown> | null) ?? null;
    return record;
  }

  /**
   * One page and the watermark, read in one statement (one snapshot: sync correctness depends on it),
   * plus the total (see list-page.ts).
   */
  list(read: UserRead, request: PageRequest, filters: SqlFilter[] = []): Promise<PageResult<T>> {
    return listPage(handleOf(read), this.listOptions(read, request, filters));
  }

  /**
   * `list`, with each item whose line the table's `presentedLine` gives as its final JSON text (see
   * list-page.ts `listPresentedPage`); without `presentedLine`, every item is a record.
   */
  listPresented(
    read: UserRead,
    request: PageRequest,
    filters: SqlFilter[] = [],
  ): Promise<PresentedPageResult<T>> {
    return listPresentedPage(handleOf(read), this.listOptions(read, request, filters));
  }

  private listOptions(read: UserRead, request: PageRequest, filters: SqlFilter[]): ListPageOptions<T> {
    return {
      table: this.options.table,
      selectList: this.selectList,
      toRecord: (row) => this.read(row, read.app),
      jsonPage: this.jsonPage,
      presented: this.options.presentedLine,
      userId: read.userId,
      request,
      filters,
    };
  }

  async findById(
    read: UserRead,
    id: string,
    options: { includeDeleted?: boolean; forUpdate?: boolean } = {},
  ): Promise<T | undefined> {
    if (!isResourceId(id)) return undefined;
    const rows: RawRow[] = await handleOf(read).query(
      `SELECT ${this.selectList} FROM ${this.options.table} t WHERE t.user_id = $1 AND t.id = $2
       ${options.includeDeleted ? '' : 'AND NOT t.deleted'} ${options.forUpdate ? 'FOR UPDATE' : ''}`,
      [read.userId, id],
    );
    return rows[0] ? this.read(rows[0], read.app) : undefined;
  }

  /** The live objects among `ids` that belong to the user (others are silently absent). */
  async findByIds(read: UserRead, ids: string[]): Promise<T[]> {
    const valid = ids.filter(isResourceId);
    if (!valid.length) return [];
    const rows: RawRow[] = await handleOf(read).query(
      `SELECT ${this.selectList} FROM ${this.options.table} t
       WHERE t.user_id = $1 AND t.id = ANY($2::bigint[]) AND NOT t.deleted`,
      [read.userId, valid],
    );
    return rows.map((row) => this.read(row, read.app));
  }

  /** Inserts inside a change transaction (see withUserChange) and records the first revision. */
  async insert(change: UserChange, snapshot: Snapshot): Promise<T> {
    const columns = this.options.toColumns(snapshot);
    const params = new SqlParams();
    const names = Object.keys(columns);
    const app = change.app;
    const values = names.map((name) =>
      name === 'extra' && app !== undefined
        ? insertExtraSql(params.add(columns[name]), params.add(app))
        : params.add(columns[name]),
    );
    const rows: RawRow[] = await transactionOf(change).query(
      `INSERT INTO ${this.options.table} AS t (user_id, change_seq, modified_at${names.map((n) => `, ${n}`).join('')})
       VALUES (${params.add(change.userId)}, ${params.add(change.changeSeq)}, date_trunc('milliseconds', clock_timestamp())${values.map((v) => `, ${v}`).join('')})
       RETURNING ${this.selectList}`,
      params.values,
    );
    const record = this.read(rows[0], app);
    await this.revisions.record(change, record);
    return record;
  }

  /**
   * Writes a new state inside a change transaction. `modified_at` moves forward by at least 1 ms per write,
   * so each `modified` value names one revision.
   */
  async update(change: UserChange, id: string, snapshot: Snapshot): Promise<T | undefined> {
    const columns = this.options.toColumns(snapshot);
    const params = new SqlParams();
    const app = change.app;
    const sets = Object.keys(columns).map((name) =>
      name === 'extra' && app !== undefined
        ? `extra = ${updateExtraSql(params.add(columns[name]), params.add(app))}`
        : `${name} = ${params.add(columns[name])}`,
    );
    const rows: RawRow[] = await transactionOf(change).query(
      `UPDATE ${this.options.table} t SET ${[...sets, `change_seq = ${params.add(change.changeSeq)}`].join(', ')},
         modified_at = GREATEST(date_trunc('milliseconds', clock_timestamp()), t.modified_at + interval '1 millisecond')
       WHERE t.user_id = ${params.add(change.userId)} AND t.id = ${params.add(id)} AND NOT t.deleted
       RETURNING ${this.selectList}`,
      params.values,
    );
    // TypeORM answers an UPDATE with [rows, rowCount], not rows.
    const updated = returnedRows(rows);
    if (!updated[0]) return undefined;
    const record = this.read(updated[0], app);
    await this.revisions.record(change, record);
    return record;
  }

  /** Marks objects deleted (soft delete); returns how many were live. */
  async softDelete(change: UserChange, ids: string[]): Promise<number> {
    const valid = ids.filter(isResourceId);
    if (!valid.length) return 0;
    const rows: RawRow[] = await transactionOf(change).query(
      `UPDATE ${this.options.table} t SET deleted = true, change_seq = $3,
         modified_at = GREATEST(date_trunc('milliseconds', clock_timestamp()), t.modified_at + interval '1 millisecond')
       WHERE t.user_id = $1 AND t.id = ANY($2::bigint[]) AND NOT t.deleted RETURNING t.id`,
      [change.userId, valid, change.changeSeq],
    );
    return returnedRows(rows).length;
  }

  /** A guarded update: `decide` sees the current object (locked) and returns the snapshot to write. */
  async updateGuarded(change: UserChange, id: string, decide: DecideUpdate<T>): Promise<T | undefined> {
    const current = await this.findById(change, id, { forUpdate: true });
    if (!current) return undefined;
    const snapshot = await decide(current, (modifiedAt) => this.findRevision(change, id, modifiedAt));
    return this.update(change, id, snapshot);
  }

  findRevision(read: UserRead, id: string, modifiedAt: Date): Promise<Snapshot | undefined> {
    return this.revisions.find(read, id, modifiedAt);
  }

  /**
   * Records the current state of `ids` as revisions: call it after a bulk UPDATE of this table (merges,
   * reference moves) so later writes based on those `modified` values can still merge three-way.
   */
  async recordRevisions(change: UserChange, ids: string[]): Promise<void> {
    const manager = transactionOf(change);
    const userId = change.userId;
    // A merge may move a million rows: read and record them a slice at a time, one INSERT per slice, so
    // memory stays flat and the round trips are ids / REVISION_BATCH, not ids.
    for (let start = 0; start < ids.length; start += REVISION_BATCH) {
      const rows: RawRow[] = await manager.query(
        `SELECT ${this.selectList} FROM ${this.options.table} t WHERE t.user_id = $1 AND t.id = ANY($2::bigint[])`,
        [userId, ids.slice(start, start + REVISION_BATCH)],
      );
      await this.revisions.recordMany(
        change,
        rows.map((row) => this.read(row, change.app)),
      );
    }
  }

  /**
   * Inserts several objects in one statement (an import's batch), each with its first revision, as
   * `insert` does one. Postgres returns the rows of an INSERT … VALUES in the order of the VALUES.
   */
  async insertMany(change: UserChange, snapshots: Snapshot[]): Promise<T[]> {
    if (!snapshots.length) return [];
    const params = new SqlParams();
    const app = change.app;
    const names = Object.keys(this.options.toColumns(snapshots[0]));
    const head = `${params.add(change.userId)}, ${params.add(change.changeSeq)}, date_trunc('milliseconds', clock_timestamp())`;
    const tuples = snapshots.map((snapshot) => {
      const columns = this.options.toColumns(snapshot);
      const values = names.map((name) =>
        name === 'extra' && app !== undefined
          ? insertExtraSql(params.add(columns[name]), params.add(app))
          : params.add(columns[name]),
      );
      return `(${head}${values.map((v) => `, ${v}`).join('')})`;
    });
    const rows: RawRow[] = await transactionOf(change).query(
      `INSERT INTO ${this.options.table} AS t (user_id, change_seq, modified_at${names.map((n) => `, ${n}`).join('')})
       VALUES ${tuples.join(', ')} RETURNING ${this.selectList}`,
      params.values,
    );
    const records = rows.map((row) => this.read(row, app));
    await this.revisions.recordMany(change, records);
    return records;
  }
}

/** TypeORM's `query` returns `[rows, rowCount]` for UPDATE and DELETE on Postgres, plain rows otherwise. */
export function returnedRows(result: unknown): RawRow[] {
  const value = result as unknown[];
  return value.length === 2 && Array.isArray(value[0]) && typeof value[1] === 'number'
    ? (value[0] as RawRow[])
    : (value as RawRow[]);
}
