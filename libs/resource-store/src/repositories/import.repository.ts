import type { ImportStatus } from '@pfs/contracts';
import type { DataSource } from 'typeorm';
import { handleOf, transactionOf, type UserChange, type UserRead } from '../sync/user-change';
import { countAttempt, moveStatus } from './job-status-moves';
import { PageRequest, PageResult, RawRow } from '../sync/resource-table';
import type { SqlFilter } from '../sync/sql-params';
import { toAmountText, toDateString } from './ledger-values';
import {
  IMPORT_PROGRESS_COLUMNS,
  ImportProgress,
  ImportRecord,
  importsTable,
  JSON_PROGRESS,
  NewImport,
} from './imports-table';

export type { ImportError, ImportProgress, ImportRecord, NewImport } from './imports-table';
export { importsTable };

/** A live entry as duplicate detection compares it: date, amount in its own currency, description. */
export interface EntryFingerprintSource {
  date: string;
  amount: string;
  description: string | null;
}

/** A label (category or tag) found by name. */
export interface NamedLabel {
  id: string;
  name: string;
  type: string;
}

/**
 * Imports of a user and what they remember. Reads take a `UserRead`, writes the caller's `UserChange`: the
 * worker writes an import's entries, its keys and its progress in one change per batch. The sweeper's
 * cross-user read uses the pool.
 */
export class ImportRepository {
  constructor(private readonly source: DataSource) {}

  async create(change: UserChange, input: NewImport): Promise<ImportRecord> {
    const rows: RawRow[] = await transactionOf(change).query(
      `INSERT INTO imports (user_id, account_id, format, options, dry_run, filename, filesize, storage_key,
         change_seq, modified_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, date_trunc('milliseconds', clock_timestamp()))
       RETURNING id::text AS id`,
      [
        change.userId,
        input.accountId,
        input.format,
        JSON.stringify(input.options),
        input.dryRun,
        input.filename,
        input.filesize,
        input.storageKey,
        change.changeSeq,
      ],
    );
    const id = String(rows[0].id);
    await importsTable.recordRevisions(change, [id]);
    return (await importsTable.findById(change, id))!;
  }

  findById(read: UserRead, id: string): Promise<ImportRecord | undefined> {
    return importsTable.findById(read, id);
  }

  list(read: UserRead, request: PageRequest, filters: { status?: ImportStatus } = {}) {
    const conditions: SqlFilter[] = [];
    if (filters.status) conditions.push((p) => `t.status = ${p(filters.status)}`);
    return importsTable.list(read, request, conditions) as Promise<PageResult<ImportRecord>>;
  }

  /**
   * Moves the status from one of `from` to `to` with the given fields, in the change. Returns the new record,
   * or undefined when the import is no longer in a `from` state (another process moved it).
   */
  async advance(
    change: UserChange,
    id: string,
    from: readonly ImportStatus[],
    to: ImportStatus,
    progress: ImportProgress = {},
  ): Promise<ImportRecord | undefined> {
    const columns = Object.entries(progress).map(([field, value]): [string, unknown] => [
      IMPORT_PROGRESS_COLUMNS[field as keyof ImportProgress],
      JSON_PROGRESS.has(field) && value !== null ? JSON.stringify(value) : value,
    ]);
    return moveStatus(importsTable, change, id, { from, to, columns });
  }

  /** Counts a processing attempt (not a change clients see). */
  countAttempt(read: UserRead, id: string): Promise<void> {
    return countAttempt(importsTable, read, id);
  }

  /** Unfinished imports untouched since `before` (their job may have been lost), across users. */
  async findUnfinished(before: Date, limit: number): Promise<Array<{ userId: string; id: string }>> {
    const rows: RawRow[] = await this.source.query(
      `SELECT t.id::text AS id, t.user_id::text AS user_id FROM imports t
       WHERE t.status IN ('uploaded', 'parsing', 'parsed', 'importing') AND NOT t.deleted
         AND NOT (t.status = 'parsed' AND t.dry_run) AND t.modified_at < $1
       ORDER BY t.modified_at LIMIT $2`,
      [before, limit],
    );
    return rows.map((row) => ({ userId: String(row.user_id), id: String(row.id) }));
  }

  /** The keys among `keys` that an earlier import of this account already wrote. */
  async findExistingKeys(read: UserRead, accountId: string, keys: string[]): Promise<Set<string>> {
    if (!keys.length) return new Set();
    const rows: RawRow[] = await handleOf(read).query(
      `SELECT key FROM import_keys WHERE user_id = $1 AND account_id = $2 AND key = ANY($3::text[])`,
      [read.userId, accountId, keys],
    );
    return new Set(rows.map((row) => String(row.key)));
  }

  /** Remembers what an import wrote, so the same rows imported again are recognised. */
  async recordKeys(
    change: UserChange,
    accountId: string,
    importId: string,
    keys: Array<{ key: string; entryId: string }>,
  ): Promise<void> {
    if (!keys.length) return;
    await transactionOf(change).query(
      `INSERT INTO import_keys (user_id, account_id, key, import_id, entry_id)
       SELECT $1, $2, k.key, $3, k.entry_id FROM unnest($4::text[], $5::bigint[]) AS k (key, entry_id)
       ON CONFLICT DO NOTHING`,
      [change.userId, accountId, importId, keys.map((k) => k.key), keys.map((k) => k.entryId)],
    );
  }

  /** The account's live entries on `dates` written before `before`: what rows without a FITID may repeat. */
  async entriesOn(
    read: UserRead,
    accountId: string,
    dates: string[],
    before: Date,
  ): Promise<EntryFingerprintSource[]> {
    if (!dates.length) return [];
    const rows: RawRow[] = await handleOf(read).query(
      `SELECT date, amount, description FROM entries
       WHERE user_id = $1 AND account_id = $2 AND date = ANY($3::date[]) AND NOT deleted AND created_at < $4`,
      [read.userId, accountId, dates, before],
    );
    return rows.map((row) => ({
      date: toDateString(row.date),
      amount: toAmountText(row.amount),
      description: (row.description as string | null) ?? null,
    }));
  }

  /** The user's live categories or tags whose names, lowercased, are among `lowerNames`. */
  async findLabelsByName(
    read: UserRead,
    kind: 'categories' | 'tags',
    lowerNames: string[],
  ): Promise<NamedLabel[]> {
    if (!lowerNames.length) return [];
    const rows: RawRow[] = await handleOf(read).query(
      `SELECT id::text AS id, name, type FROM ${kind === 'tags' ? 'tags' : 'categories'}
       WHERE user_id = $1 AND NOT deleted AND lower(name) = ANY($2::text[]) ORDER BY id`,
      [read.userId, lowerNames],
    );
    return rows.map((row) => ({ id: String(row.id), name: String(row.name), type: String(row.type) }));
  }
}
