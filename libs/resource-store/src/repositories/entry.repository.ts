import { isResourceId } from '@pfs/contracts';
import type { CustomRate } from '@pfs/money';
import { RawRow, ResourceTable, Snapshot, SyncedRecord } from '../sync/resource-table';
import type { SqlFilter } from '../sync/sql-params';
import { handleOf, transactionOf, type UserChange, type UserRead } from '../sync/user-change';
import { ENTRY_JSON_COLUMNS } from './entry-json-columns';
import { entryPresentedLineOf } from './entry-presented-line';
import { toAmountText, toDateString } from './ledger-values';
import { toCustomRates } from './user.repository';

export interface EntryLocation {
  id?: string;
  venue_id?: string;
  latitude: number;
  longitude: number;
}

export interface EntryReminder {
  period: 'day' | 'week' | 'month' | 'year';
  number: number;
  at: string;
}

/** An entry as plain data: `amount` in `currency`; `accountAmount` is it in the account's currency. */
export interface Entry extends SyncedRecord {
  accountId: string;
  categoryId: string | null;
  amount: string;
  currency: string;
  /** Units of the account's currency per unit of the entry's currency, as used on the entry's date. */
  rate: string;
  fixed: boolean;
  accountAmount: string;
  date: string;
  description: string | null;
  tagIds: string[];
  location: EntryLocation | null;
  reminders: EntryReminder[] | null;
  completed: boolean;
  /** The companion entry of a transfer. */
  transactionId: string | null;
  /** Attached images (ids of the images table), at most 4. */
  imageIds: string[];
  /** The repeating series this entry is an occurrence of, and which one (0 = the first). */
  repeatId: string | null;
  iteration: number | null;
}

/**
 * The writable state of an entry in API shape, stored per revision. `account_amount` is derived by the use
 * case before each write and kept here only so the write carries it.
 */
export interface EntrySnapshot extends Snapshot {
  amount: string;
  currency: { code: string; rate: string; fixed: boolean };
  date: string;
  desc?: string;
  account: string;
  category?: string;
  tags?: string[];
  location?: EntryLocation;
  reminders?: EntryReminder[];
  completed: boolean;
  transaction?: { id: string };
  images?: Array<{ id: string }>;
  extra?: Record<string, unknown>;
  account_amount: string;
}

export const entriesTable = new ResourceTable<Entry>({
  table: 'entries',
  kind: 'entries',
  columns: [
    'account_id',
    'category_id',
    'amount',
    'currency',
    'rate',
    'fixed',
    'account_amount',
    // As text: the calendar day is what is presented; pg would build a local-midnight Date of it (postgres-date's
    // regular expressions, 200 a page) only for toDateString to format it back.
    'date::text AS date',
    'description',
    'tag_ids',
    'location',
    'reminders',
    'completed',
    'transaction_id',
    'image_ids',
    // Read only: written by the repeat series' own statements (RepeatRepository.link), never by toColumns.
    'repeat_id',
    'iteration',
  ],
  jsonColumns: ENTRY_JSON_COLUMNS,
  presentedLine: entryPresentedLineOf,
  toRecord: (row: RawRow): Entry =>
    ResourceTable.withCommonFields(row, {
      accountId: String(row.account_id),
      categoryId: row.category_id === null ? null : String(row.category_id),
      amount: toAmountText(row.amount),
      currency: String(row.currency),
      rate: toAmountText(row.rate),
      fixed: Boolean(row.fixed),
      accountAmount: toAmountText(row.account_amount),
      date: toDateString(row.date),
      description: (row.description as string | null) ?? null,
      tagIds: ((row.tag_ids as unknown[]) ?? []).map(String),
      location: (row.location as EntryLocation | null) ?? null,
      reminders: (row.reminders as EntryReminder[] | null) ?? null,
      completed: Boolean(row.completed),
      transactionId: row.transaction_id === null ? null : String(row.transaction_id),
      imageIds: ((row.image_ids as unknown[]) ?? []).map(String),
      repeatId: row.repeat_id === null || row.repeat_id === undefined ? null : String(row.repeat_id),
      iteration: row.iteration === null || row.iteration === undefined ? null : Number(row.iteration),
    }),
  toSnapshot: (entry: Entry): EntrySnapshot => ({
    amount: entry.amount,
    currency: { code: entry.currency, rate: entry.rate, fixed: entry.fixed },
    date: entry.date,
    ...(entry.description ? { desc: entry.description } : {}),
    account: entry.accountId,
    ...(entry.categoryId ? { category: entry.categoryId } : {}),
    ...(entry.tagIds.length ? { tags: entry.tagIds } : {}),
    ...(entry.location ? { location: entry.location } : {}),
    ...(entry.reminders?.length ? { reminders: entry.reminders } : {}),
    completed: entry.completed,
    ...(entry.transactionId ? { transaction: { id: entry.transactionId } } : {}),
    ...(entry.imageIds.length ? { images: entry.imageIds.map((id) => ({ id })) } : {}),
    ...(entry.extra ? { extra: entry.extra } : {}),
    account_amount: entry.accountAmount,
  }),
  toColumns: (snapshot: Snapshot) => {
    const entry = snapshot as EntrySnapshot;
    return {
      account_id: entry.account,
      category_id: entry.category ?? null,
      amount: entry.amount,
      currency: entry.currency.code,
      rate: entry.currency.rate,
      fixed: entry.currency.fixed,
      account_amount: entry.account_amount,
      date: entry.date,
      description: entry.desc ?? null,
      tag_ids: entry.tags ?? [],
      location: entry.location ? JSON.stringify(entry.location) : null,
      reminders: entry.reminders?.length ? JSON.stringify(entry.reminders) : null,
      completed: entry.completed,
      transaction_id: entry.transaction?.id ?? null,
      image_ids: (entry.images ?? []).map((image) => image.id),
      extra: entry.extra ? JSON.stringify(entry.extra) : null,
    };
  },
});

/** Entry SQL beyond the shared table helpers. Returns plain data. */
export class EntryRepository {
  readonly table = entriesTable;

  /** Points two entries at each other as a transfer pair (no new revision: the link is derived). */
  async linkPair(change: UserChange, firstId: string, secondId: string): Promise<void> {
    await transactionOf(change).query(
      `UPDATE entries SET transaction_id = CASE id WHEN $1 THEN $2::bigint ELSE $1::bigint END
       WHERE id IN ($1, $2) AND user_id = $3`,
      [firstId, secondId, change.userId],
    );
  }

  /**
   * A transfer whose two sides ended up in one account (after a merge or a bulk account change) moves
   * nothing: its sides become plain entries (they still cancel out in the balance).
   */
  async unlinkTransfersWithin(change: UserChange, accountId: string): Promise<void> {
    await transactionOf(change).query(
      `UPDATE entries e SET transaction_id = NULL, change_seq = $3
       FROM entries other
       WHERE e.user_id = $1 AND e.account_id = $2 AND NOT e.deleted
         AND other.id = e.transaction_id AND other.account_id = $2`,
      [change.userId, accountId, change.changeSeq],
    );
  }

  /**
   * The user's main currency and custom rates (one indexed read, no ORM): what `main_rate` and sums in the
   * main currency convert with.
   */
  async findCurrencySettings(read: UserRead): Promise<{ main: string; customRates: CustomRate[] }> {
    const [row] = await handleOf(read).query(`SELECT currency, custom_rates FROM users WHERE id = $1`, [
      read.userId,
    ]);
    return { main: row?.currency ?? 'EUR', customRates: toCustomRates(row?.custom_rates) };
  }

  /** Ids of the user's live categories among `ids`. */
  findLiveCategoryIds(read: UserRead, ids: string[]): Promise<string[]> {
    return this.findLiveIds(read, 'categories', ids);
  }

  findLiveTagIds(read: UserRead, ids: string[]): Promise<string[]> {
    return this.findLiveIds(read, 'tags', ids);
  }

  /** Ids of the user's live images among `ids` (entries may hold only those). */
  findLiveImageIds(read: UserRead, ids: string[]): Promise<string[]> {
    return this.findLiveIds(read, 'images', ids);
  }

  private async findLiveIds(
    read: UserRead,
    table: 'categories' | 'tags' | 'images',
    ids: string[],
  ): Promise<string[]> {
    const valid = [...new Set(ids.filter(isResourceId))];
    if (!valid.length) return [];
    const rows: Array<{ id: string }> = await handleOf(read).query(
      `SELECT id::text AS id FROM ${table} WHERE user_id = $1 AND id = ANY($2::bigint[]) AND NOT deleted`,
      [read.userId, valid],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Soft-deletes every live entry of an account in one statement (an account may hold a million) and turns
   * their transfer companions elsewhere into plain entries. Returns how many entries were deleted. Deleted
   * rows need no revision: they can no longer be written.
   */
  async deleteEntriesOfAccount(change: UserChange, accountId: string): Promise<number> {
    const manager = transactionOf(change);
    const params = [change.userId, accountId, change.changeSeq];
    const deleted = await manager.query(
      `UPDATE entries SET deleted = true, change_seq = $3,
         modified_at = GREATEST(date_trunc('milliseconds', clock_timestamp()), modified_at + interval '1 millisecond')
       WHERE user_id = $1 AND account_id = $2 AND NOT deleted RETURNING id`,
      params,
    );
    const count = (Array.isArray(deleted[0]) ? deleted[0] : deleted).length;
    await manager.query(
      `UPDATE entries c SET transaction_id = NULL, change_seq = $3
       FROM entries d
       WHERE d.user_id = $1 AND d.account_id = $2 AND c.id = d.transaction_id AND c.account_id <> $2 AND NOT c.deleted`,
      params,
    );
    await manager.query(
      `UPDATE accounts SET entries_total = 0, entries_count = 0, change_seq = $3 WHERE id = $2 AND user_id = $1`,
      params,
    );
    return count;
  }

  /**
   * Moves every live entry of `fromIds` to `toId` in one statement, for accounts of one currency (each
   * entry's rate stays right, so its amount in the account does too), and records the new revisions.
   * Returns how many moved; the caller recomputes the accounts' totals.
   */
  async moveEntriesOfAccounts(change: UserChange, fromIds: string[], toId: string): Promise<number> {
    const moved = await transactionOf(change).query(
      `UPDATE entries SET account_id = $3, change_seq = $4,
         modified_at = GREATEST(date_trunc('milliseconds', clock_timestamp()), modified_at + interval '1 millisecond')
       WHERE user_id = $1 AND account_id = ANY($2::bigint[]) AND NOT deleted RETURNING id::text AS id`,
      [change.userId, fromIds, toId, change.changeSeq],
    );
    const ids: string[] = (Array.isArray(moved[0]) ? moved[0] : moved).map((row: { id: string }) => row.id);
    await this.table.recordRevisions(change, ids);
    return ids.length;
  }

  /**
   * The user's live entries matching every given criterion (most recent change first), at most `limit`:
   * the selection of a bulk change (`POST /entries/manage`).
   */
  async findMatching(
    read: UserRead,
    selection: { tags?: string[]; accounts?: string[]; categories?: string[]; description?: string },
    limit: number,
  ): Promise<Entry[]> {
    const filters: SqlFilter[] = [];
    if (selection.tags) filters.push((p) => `t.tag_ids && ${p(selection.tags)}::bigint[]`);
    if (selection.accounts) filters.push((p) => `t.account_id = ANY(${p(selection.accounts)}::bigint[])`);
    if (selection.categories)
      filters.push((p) => `t.category_id = ANY(${p(selection.categories)}::bigint[])`);
    if (selection.description) filters.push((p) => `t.description = ${p(selection.description)}`);
    const page = await this.table.list(read, { perPage: limit, offset: 0, includeDeleted: false }, filters);
    return page.items;
  }

  /** Live entries of one account (for deleting or merging it), locked. */
  async lockEntriesOfAccounts(change: UserChange, accountIds: string[]): Promise<Entry[]> {
    const rows: Array<{ id: string }> = await transactionOf(change).query(
      `SELECT id::text AS id FROM entries WHERE user_id = $1 AND account_id = ANY($2::bigint[]) AND NOT deleted
       ORDER BY id FOR UPDATE`,
      [change.userId, accountIds],
    );
    return this.table.findByIds(
      change,
      rows.map((row) => row.id),
    );
  }
}
