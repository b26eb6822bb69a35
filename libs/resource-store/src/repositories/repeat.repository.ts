import type { DataSource } from 'typeorm';
import { runWithXactLock } from '../singleton-lock';
import { handleOf, transactionOf, type UserChange, type UserRead } from '../sync/user-change';
import { entriesTable, type Entry } from './entry.repository';
import { toDateString } from './ledger-values';

/** A repeat rule as the API shows it (RFC 5545 RRULE parts); validated by the API before it is stored. */
export interface StoredRepeatRule {
  start: string;
  end?: string;
  count?: number;
  frequency: 'daily' | 'weekly' | 'monthly' | 'yearly';
  interval: number;
  byday?: string;
  bymonthday?: string;
  bysetpos?: string;
  type: 'automatic' | 'confirm' | 'confirmed';
}

/** One repeating series: its rule, the template of its occurrences, and how far it is materialized. */
export interface RepeatSeries {
  id: string;
  userId: string;
  rule: StoredRepeatRule;
  /** The occurrences' entry state without date and completed (API shape; see repeat-template.ts). */
  template: Record<string, unknown>;
  firstEntryId: string | null;
  /** Iterations below this were created (and may since have been deleted alone). */
  nextIteration: number;
  /** The date of `nextIteration`; null when the rule has no more occurrences. */
  nextDate: string | null;
  deleted: boolean;
}

const SELECT = `id::text AS id, user_id::text AS user_id, rule, template, first_entry_id::text AS first_entry_id,
  next_iteration, next_date, deleted`;

function toSeries(row: Record<string, unknown>): RepeatSeries {
  return {
    id: String(row.id),
    userId: String(row.user_id),
    rule: row.rule as StoredRepeatRule,
    template: row.template as Record<string, unknown>,
    firstEntryId: (row.first_entry_id as string | null) ?? null,
    nextIteration: Number(row.next_iteration),
    nextDate: row.next_date === null ? null : toDateString(row.next_date),
    deleted: Boolean(row.deleted),
  };
}

const rowsOf = (result: unknown): Array<Record<string, unknown>> =>
  (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as Array<Record<string, unknown>>;

/**
 * SQL of repeating series. Series are not a synced resource of their own: every change to a series
 * rewrites its occurrences (entries), which carry the sync state clients see.
 */
export class RepeatRepository {
  /** `source` serves the materializer's reads across users (findDue…); user work goes through contexts. */
  constructor(private readonly source: DataSource) {}

  /**
   * Runs `work` while holding the advisory lock `key` (transaction-level, see runWithXactLock), or answers
   * 'locked' at once when another process holds it (one materializer pass at a time across processes).
   */
  whileLocked<T>(key: number, work: () => Promise<T>): Promise<T | 'locked'> {
    return runWithXactLock(this.source, key, work, 'locked' as const);
  }

  async insert(
    change: UserChange,
    series: { rule: StoredRepeatRule; template: Record<string, unknown> },
  ): Promise<RepeatSeries> {
    const [row] = await transactionOf(change).query(
      `INSERT INTO repeats (user_id, rule, template, next_date) VALUES ($1, $2, $3, $4) RETURNING ${SELECT}`,
      [change.userId, JSON.stringify(series.rule), JSON.stringify(series.template), series.rule.start],
    );
    return toSeries(row);
  }

  /** The user's series, locked for the rest of the transaction (every write to a series takes this lock). */
  async lock(change: UserChange, id: string): Promise<RepeatSeries | undefined> {
    const rows = await transactionOf(change).query(
      `SELECT ${SELECT} FROM repeats WHERE user_id = $1 AND id = $2 FOR UPDATE`,
      [change.userId, id],
    );
    return rows[0] ? toSeries(rows[0]) : undefined;
  }

  async findByIds(read: UserRead, ids: string[]): Promise<RepeatSeries[]> {
    if (!ids.length) return [];
    const rows = await handleOf(read).query(
      `SELECT ${SELECT} FROM repeats WHERE user_id = $1 AND id = ANY($2::bigint[])`,
      [read.userId, [...new Set(ids)]],
    );
    return rows.map(toSeries);
  }

  /** Every live series of the user that still has occurrences to come (for planned occurrences). */
  async findLiveOfUser(read: UserRead): Promise<RepeatSeries[]> {
    const rows = await handleOf(read).query(
      `SELECT ${SELECT} FROM repeats WHERE user_id = $1 AND NOT deleted AND next_date IS NOT NULL ORDER BY id`,
      [read.userId],
    );
    return rows.map(toSeries);
  }

  /** Saves what a write changed; only the given fields move. */
  async save(
    change: UserChange,
    series: Pick<RepeatSeries, 'id' | 'rule' | 'template' | 'nextIteration' | 'nextDate' | 'deleted'> & {
      firstEntryId?: string | null;
    },
  ): Promise<void> {
    await transactionOf(change).query(
      `UPDATE repeats SET rule = $2, template = $3, next_iteration = $4, next_date = $5, deleted = $6,
         first_entry_id = COALESCE($7, first_entry_id), updated_at = now()
       WHERE id = $1 AND user_id = $8`,
      [
        series.id,
        JSON.stringify(series.rule),
        JSON.stringify(series.template),
        series.nextIteration,
        series.nextDate,
        series.deleted,
        series.firstEntryId ?? null,
        change.userId,
      ],
    );
  }

  /** The time zones ('' for none set) of users with a series due by `through` (UTC's tomorrow at most). */
  async findDueTimezones(through: string): Promise<string[]> {
    const rows: Array<{ timezone: string }> = await this.source.query(
      `SELECT DISTINCT coalesce(u.timezone, '') AS timezone FROM repeats r JOIN users u ON u.id = r.user_id
       WHERE NOT r.deleted AND r.next_date IS NOT NULL AND r.next_date <= $1`,
      [through],
    );
    return rows.map((row) => row.timezone);
  }

  /**
   * Series due on their user's own day, after `afterId`, in id order: one bounded batch for the materializer.
   * `today` is one day for everyone, or each time zone's day ('' for users without one). Only series due for
   * their user come back, so ones due tomorrow in their zone never fill a batch ahead of due ones.
   */
  async findDue(options: {
    today: string | Map<string, string>;
    afterId: string;
    limit: number;
    onlyUsers?: string[];
  }): Promise<Array<{ id: string; userId: string }>> {
    const zones = typeof options.today === 'string' ? undefined : [...options.today];
    const params: unknown[] = [options.afterId, options.limit, options.onlyUsers ?? null];
    const dueOn = zones
      ? `JOIN users u ON u.id = r.user_id
         JOIN unnest($4::text[], $5::date[]) AS z (timezone, day) ON z.timezone = coalesce(u.timezone, '')
         WHERE r.next_date <= z.day`
      : 'WHERE r.next_date <= $4::date';
    if (zones)
      params.push(
        zones.map(([zone]) => zone),
        zones.map(([, day]) => day),
      );
    else params.push(options.today);
    const rows = await this.source.query(
      `SELECT r.id::text AS id, r.user_id::text AS user_id FROM repeats r ${dueOn}
         AND NOT r.deleted AND r.next_date IS NOT NULL AND r.id > $1
         AND ($3::bigint[] IS NULL OR r.user_id = ANY($3::bigint[]))
       ORDER BY r.id LIMIT $2`,
      params,
    );
    return rows.map((row: Record<string, unknown>) => ({ id: String(row.id), userId: String(row.user_id) }));
  }

  /** Marks an entry as occurrence `iteration` of a series (a derived link, like a transfer's: no revision). */
  async link(change: UserChange, entryId: string, repeatId: string, iteration: number): Promise<void> {
    await transactionOf(change).query(
      `UPDATE entries SET repeat_id = $2, iteration = $3 WHERE id = $1 AND user_id = $4`,
      [entryId, repeatId, iteration, change.userId],
    );
  }

  /**
   * Gives every live occurrence of a series a new change (sequence, modified, revision): their `repeat`
   * shows the series' rule, so when the rule changes without the occurrences being rewritten (a split, a
   * cut), syncing clients must fetch them again.
   */
  async touchOccurrences(change: UserChange, repeatId: string): Promise<void> {
    const ids = rowsOf(
      await transactionOf(change).query(
        `UPDATE entries SET change_seq = $3,
           modified_at = GREATEST(date_trunc('milliseconds', clock_timestamp()), modified_at + interval '1 millisecond')
         WHERE user_id = $1 AND repeat_id = $2 AND NOT deleted RETURNING id::text AS id`,
        [change.userId, repeatId, change.changeSeq],
      ),
    ).map((row) => String(row.id));
    await entriesTable.recordRevisions(change, ids);
  }

  /** Live occurrences of a series from `fromIteration` on, locked, in iteration order. */
  async lockOccurrences(change: UserChange, repeatId: string, fromIteration = 0): Promise<Entry[]> {
    const rows = rowsOf(
      await transactionOf(change).query(
        `SELECT id::text AS id FROM entries
         WHERE user_id = $1 AND repeat_id = $2 AND iteration >= $3 AND NOT deleted
         ORDER BY iteration FOR UPDATE`,
        [change.userId, repeatId, fromIteration],
      ),
    );
    const entries = await entriesTable.findByIds(
      change,
      rows.map((row) => String(row.id)),
    );
    return entries.sort((a, b) => (a.iteration ?? 0) - (b.iteration ?? 0));
  }

  /** The currency of each of the user's live accounts among `ids` (for planned occurrences' rates). */
  async findAccountCurrencies(read: UserRead, ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await handleOf(read).query(
      `SELECT id::text AS id, currency FROM accounts WHERE user_id = $1 AND id = ANY($2::bigint[]) AND NOT deleted`,
      [read.userId, [...new Set(ids)]],
    );
    return new Map(rows.map((row: { id: string; currency: string }) => [row.id, row.currency]));
  }

  /** The user's timezone (IANA name) or null: "today" of a series is the user's today. */
  async findTimezone(read: UserRead): Promise<string | null> {
    const [row] = await handleOf(read).query(`SELECT timezone FROM users WHERE id = $1`, [read.userId]);
    return (row?.timezone as string | null) ?? null;
  }
}
