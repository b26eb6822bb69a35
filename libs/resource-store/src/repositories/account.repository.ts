import { RawRow, ResourceTable, Snapshot, SyncedRecord } from '../sync/resource-table';
import { handleOf, transactionOf, type UserChange, type UserRead } from '../sync/user-change';
import { toAmountText, toOptionalAmount } from './ledger-values';

export const ACCOUNT_TYPES = [
  'custom',
  'depository',
  'credit_card',
  'loan',
  'mortgage',
  'brokerage',
  'investment',
  'savings',
  'other',
] as const;
export const ACCOUNT_STATUSES = ['active', 'inactive', 'archived'] as const;

export interface AccountGoal {
  amount: string;
  start: string;
  end: string;
}

/** An account as plain data. Its balance is `initialBalance + entriesTotal` (see the migration). */
export interface Account extends SyncedRecord {
  parentId: string | null;
  name: string;
  type: string;
  currency: string;
  initialBalance: string;
  entriesTotal: string;
  limit: string | null;
  status: string;
  order: number;
  goal: AccountGoal | null;
}

/**
 * The writable state of an account in API shape (stored per revision for three-way merges). Amounts are
 * exact decimal strings.
 */
export interface AccountSnapshot extends Snapshot {
  name: string;
  type: string;
  currency: { code: string };
  initial_balance: string;
  limit?: string;
  status: string;
  order: number;
  parent?: string;
  goal?: AccountGoal;
  extra?: Record<string, unknown>;
}

export const accountsTable = new ResourceTable<Account>({
  table: 'accounts',
  kind: 'accounts',
  columns: [
    'parent_id',
    'name',
    'type',
    'currency',
    'initial_balance',
    'entries_total',
    'credit_limit',
    'status',
    'sort_order',
    'goal',
  ],
  toRecord: (row: RawRow): Account =>
    ResourceTable.withCommonFields(row, {
      parentId: row.parent_id === null ? null : String(row.parent_id),
      name: String(row.name),
      type: String(row.type),
      currency: String(row.currency),
      initialBalance: toAmountText(row.initial_balance),
      entriesTotal: toAmountText(row.entries_total),
      limit: toOptionalAmount(row.credit_limit),
      status: String(row.status),
      order: Number(row.sort_order),
      goal: (row.goal as AccountGoal | null) ?? null,
    }),
  toSnapshot: (account: Account): AccountSnapshot => ({
    name: account.name,
    type: account.type,
    currency: { code: account.currency },
    initial_balance: account.initialBalance,
    ...(account.limit !== null ? { limit: account.limit } : {}),
    status: account.status,
    order: account.order,
    ...(account.parentId ? { parent: account.parentId } : {}),
    ...(account.goal ? { goal: account.goal } : {}),
    ...(account.extra ? { extra: account.extra } : {}),
  }),
  toColumns: (snapshot: Snapshot) => {
    const account = snapshot as AccountSnapshot;
    return {
      name: account.name,
      type: account.type,
      currency: account.currency.code,
      initial_balance: account.initial_balance,
      credit_limit: account.limit ?? null,
      status: account.status,
      sort_order: account.order,
      parent_id: account.parent ?? null,
      goal: account.goal ? JSON.stringify(account.goal) : null,
      extra: account.extra ? JSON.stringify(account.extra) : null,
    };
  },
});

/** Account-specific SQL beyond the shared table helpers. Returns plain data. */
export class AccountRepository {
  readonly table = accountsTable;

  async countLive(read: UserRead): Promise<number> {
    const [row] = await handleOf(read).query(
      `SELECT count(*)::int AS count FROM accounts WHERE user_id = $1 AND NOT deleted`,
      [read.userId],
    );
    return row.count;
  }

  /**
   * The user's live accounts among `ids`, for a write transaction. No row lock is taken: every write of a
   * user runs in a change (withUserChange), which claimed the user's change sequence and so serialises
   * them, and balances only ever move by atomic `+ delta` updates.
   */
  async lockAccounts(change: UserChange, ids: string[]): Promise<Account[]> {
    return this.table.findByIds(change, ids);
  }

  /**
   * Adds `delta` (exact text) to an account's entries total and `countDelta` to its live-entry count, in the
   * change. The account joins the change (its balance changed) without a new `modified`: only its writable
   * fields define revisions.
   */
  async addToEntriesTotal(
    change: UserChange,
    accountId: string,
    delta: string,
    countDelta = 0,
  ): Promise<void> {
    await transactionOf(change).query(
      `UPDATE accounts SET entries_total = entries_total + $2::numeric, entries_count = entries_count + $4, change_seq = $3
       WHERE id = $1 AND user_id = $5`,
      [accountId, delta, change.changeSeq, countDelta, change.userId],
    );
  }

  /**
   * `countLiveEntries` as an SQL expression over the user id's parameter, for a list page's own statement
   * (`PageRequest.totalSql`): the total of an unfiltered entries page without a second round trip.
   */
  readonly liveEntriesTotalSql = (userParameter: string) =>
    `SELECT coalesce(sum(entries_count), 0)::bigint FROM accounts WHERE user_id = ${userParameter}`;

  /** How many live entries the user has (the sum of the per-account counts kept with every write). */
  async countLiveEntries(read: UserRead): Promise<number> {
    const [row] = await handleOf(read).query(
      `SELECT coalesce(sum(entries_count), 0)::bigint AS count FROM accounts WHERE user_id = $1`,
      [read.userId],
    );
    return Number(row.count);
  }

  /** Recomputes an account's entries total from its live entries (after a merge moved many at once). */
  async recomputeEntriesTotal(change: UserChange, accountId: string): Promise<void> {
    await transactionOf(change).query(
      `UPDATE accounts SET change_seq = $2,
         entries_total = coalesce((SELECT sum(account_amount) FROM entries WHERE account_id = $1 AND NOT deleted), 0),
         entries_count = (SELECT count(*) FROM entries WHERE account_id = $1 AND NOT deleted)
       WHERE id = $1 AND user_id = $3`,
      [accountId, change.changeSeq, change.userId],
    );
  }

  /** Accounts whose parent is one of `parentIds` become top-level (their parents are going away). */
  async detachChildren(change: UserChange, parentIds: string[]): Promise<void> {
    await transactionOf(change).query(
      `UPDATE accounts SET parent_id = NULL, change_seq = $3 WHERE user_id = $1 AND parent_id = ANY($2::bigint[])`,
      [change.userId, parentIds, change.changeSeq],
    );
  }

  /** Whether the account holds any live entry. */
  async hasEntries(read: UserRead, accountId: string): Promise<boolean> {
    const rows: unknown[] = await handleOf(read).query(
      `SELECT 1 FROM entries WHERE user_id = $1 AND account_id = $2 AND NOT deleted LIMIT 1`,
      [read.userId, accountId],
    );
    return rows.length > 0;
  }

  /** The next free position at the end of the user's order. */
  async nextOrder(read: UserRead): Promise<number> {
    const [row] = await handleOf(read).query(
      `SELECT coalesce(max(sort_order) + 1, 0)::int AS next FROM accounts WHERE user_id = $1 AND NOT deleted`,
      [read.userId],
    );
    return row.next;
  }

  /** Live accounts of the user in display order (order, then id). */
  async listInOrder(read: UserRead): Promise<Account[]> {
    const rows: Array<{ id: string }> = await handleOf(read).query(
      `SELECT id::text AS id FROM accounts WHERE user_id = $1 AND NOT deleted ORDER BY sort_order, id`,
      [read.userId],
    );
    const records = await this.table.findByIds(
      read,
      rows.map((row) => row.id),
    );
    const byId = new Map(records.map((record) => [record.id, record]));
    return rows.map((row) => byId.get(row.id)!).filter(Boolean);
  }
}
