import { returnedRows } from '../sync/resource-table';
import { handleOf, transactionOf, type UserChange, type UserRead } from '../sync/user-change';
import { accountsTable } from './account.repository';
import { budgetsTable } from './budgets-table';
import { entrySnapshotSql } from './entry-revision-sql';

/** The factor (units of the new currency per 1 of the old) that applies to entries dated `date`. */
export interface DayFactor {
  date: string;
  factor: string;
}

/** Entries updated by one bulk statement: how many, and the accounts whose totals must be recomputed. */
interface BulkResult {
  count: number;
  accountIds: string[];
}

const bumpModified = `modified_at = GREATEST(date_trunc('milliseconds', clock_timestamp()), e.modified_at + interval '1 millisecond')`;

/**
 * The set-based SQL of a main-currency change (`PUT /me` with a new `currency.main`): each step is one
 * statement whatever the number of entries (a user may have a million), run inside the caller's change
 * transaction (withUserChange). Every touched row takes the change sequence and a new `modified`, and gets
 * a revision, so `since` syncs return it and later writes based on it still merge three-way.
 */
export class MainCurrencyChangeRepository {
  /**
   * `sign`: relabels the user's live accounts and entries in `from` as `to`, amounts unchanged. An entry
   * whose currency now equals its account's gets rate 1 (its account amount is its amount); other entries
   * keep their stored rate and account amount. Returns the relabelled account ids and the entry result.
   */
  async relabel(
    change: UserChange,
    options: { from: string; to: string },
  ): Promise<{ accountIds: string[]; entries: BulkResult }> {
    const { userId, changeSeq } = change;
    const { from, to } = options;
    const manager = transactionOf(change);
    const accountRows = returnedRows(
      await manager.query(
        `UPDATE accounts e SET currency = $3::text, change_seq = $4, ${bumpModified}
         WHERE e.user_id = $1 AND e.currency = $2::text AND NOT e.deleted RETURNING e.id::text AS id`,
        [userId, from, to, changeSeq],
      ),
    );
    const accountIds = accountRows.map((row) => String(row.id));
    await accountsTable.recordRevisions(change, accountIds);
    const newCode = `CASE WHEN e.currency = $2::text THEN $3::text ELSE e.currency::text END`;
    const entries = await this.updateEntriesWithRevisions(
      change,
      `UPDATE entries e SET currency = ${newCode},
         rate = CASE WHEN ${newCode} = a.currency::text THEN 1 ELSE e.rate END,
         account_amount = CASE WHEN ${newCode} = a.currency::text THEN e.amount ELSE e.account_amount END,
         change_seq = $4, ${bumpModified}
       FROM accounts a
       WHERE e.user_id = $1 AND NOT e.deleted AND a.id = e.account_id
         AND (e.currency = $2::text OR (e.currency = $3::text AND a.id = ANY($5::bigint[])))
       RETURNING e.*`,
      [userId, from, to, changeSeq, accountIds],
    );
    await this.relabelBudgets(change, options);
    await this.relabelRepeatTemplates(change, options);
    return { accountIds, entries };
  }

  /**
   * `update_accounts`, repeating entries: a template whose client-chosen rate was to an account that moved
   * to `to` (the entry's own account, or a transfer's other side) takes that rate times `factor` (old → new,
   * the rate of the day of the change), half-even to 12 decimals, as the moved balances do; one in `to`
   * itself needs no rate. Templates without a chosen rate take each date's ECB rate anyway.
   */
  async rerateRepeatTemplates(
    change: UserChange,
    options: { accountIds: string[]; to: string; factor: string },
  ): Promise<void> {
    const side = (path: string, account: string) => `
      CASE WHEN t.template #>> '{${account}}' = ANY($2::text[]) AND t.template #> '{${path},rate}' IS NOT NULL
        THEN CASE WHEN t.template #>> '{${path},code}' = $3::text
          THEN t.template #- '{${path},rate}'
          ELSE jsonb_set(t.template, '{${path},rate}',
            to_jsonb(trim_scale(pfs_round_half_even((t.template #>> '{${path},rate}')::numeric * $4::numeric, 12))::text))
        END
        ELSE t.template END`;
    await transactionOf(change).query(
      `UPDATE repeats r SET template = b.template, updated_at = now()
       FROM (SELECT id, ${side('currency', 'account')} AS template FROM repeats t WHERE t.user_id = $1 AND NOT t.deleted) a,
       LATERAL (SELECT ${side('transaction,currency', 'transaction,account').replaceAll('t.template', 'a.template')} AS template) b
       WHERE r.id = a.id AND r.template IS DISTINCT FROM b.template`,
      [change.userId, options.accountIds, options.to, options.factor],
    );
  }

  /** `sign`, budgets: a budget counted in the mislabelled code is counted in the new one, limits unchanged. */
  private async relabelBudgets(change: UserChange, options: { from: string; to: string }): Promise<void> {
    const rows = returnedRows(
      await transactionOf(change).query(
        `UPDATE budgets e SET currency = $3::text, change_seq = $4, ${bumpModified}
         WHERE e.user_id = $1 AND e.currency = $2::text AND NOT e.deleted RETURNING e.id::text AS id`,
        [change.userId, options.from, options.to, change.changeSeq],
      ),
    );
    await budgetsTable.recordRevisions(
      change,
      rows.map((row) => String(row.id)),
    );
  }

  /**
   * `sign`, repeating entries: the templates future occurrences are made from (the entry's and a transfer's
   * companion currency) take the new code, so occurrences created later are labelled as the relabelled ones.
   */
  private async relabelRepeatTemplates(
    change: UserChange,
    options: { from: string; to: string },
  ): Promise<void> {
    await transactionOf(change).query(
      `UPDATE repeats r SET template = b.template, updated_at = now()
       FROM (SELECT id, CASE WHEN template #>> '{currency,code}' = $2::text
                        THEN jsonb_set(template, '{currency,code}', to_jsonb($3::text)) ELSE template END AS template
             FROM repeats WHERE user_id = $1 AND NOT deleted) a,
       LATERAL (SELECT CASE WHEN a.template #>> '{transaction,currency,code}' = $2::text
                       THEN jsonb_set(a.template, '{transaction,currency,code}', to_jsonb($3::text))
                       ELSE a.template END AS template) b
       WHERE r.id = a.id AND r.template IS DISTINCT FROM b.template`,
      [change.userId, options.from, options.to],
    );
  }

  /**
   * `update_accounts`: re-rates every live entry of `accountIds` (accounts that just moved to `to`): an
   * entry in `to` gets rate 1; any other keeps its rate times the factor of its date, half-even to the
   * 12 decimals rates are stored with. Its account amount is then its amount times the new rate, half-even
   * to `precision` (the new account currency's). `factors` must cover every date of those entries.
   */
  async rerateEntries(
    change: UserChange,
    options: { accountIds: string[]; to: string; precision: number; factors: DayFactor[] },
  ): Promise<BulkResult> {
    const { userId, changeSeq } = change;
    const { accountIds, to, precision, factors } = options;
    if (!accountIds.length) return { count: 0, accountIds: [] };
    return this.updateEntriesWithRevisions(
      change,
      `UPDATE entries e SET rate = n.rate, account_amount = pfs_round_half_even(e.amount * n.rate, $4),
         change_seq = $5, ${bumpModified}
       FROM (
         SELECT x.id, CASE WHEN x.currency = $3::text THEN 1::numeric ELSE pfs_round_half_even(x.rate * f.factor, 12) END AS rate
         FROM entries x JOIN unnest($6::date[], $7::numeric[]) AS f (date, factor) ON f.date = x.date
         WHERE x.user_id = $1 AND x.account_id = ANY($2::bigint[]) AND NOT x.deleted
       ) n
       WHERE e.id = n.id
       RETURNING e.*`,
      [
        userId,
        accountIds,
        to,
        precision,
        changeSeq,
        factors.map((day) => day.date),
        factors.map((day) => day.factor),
      ],
    );
  }

  /** The distinct dates of the live entries of `accountIds` (what `rerateEntries` needs factors for). */
  async entryDates(read: UserRead, accountIds: string[]): Promise<string[]> {
    if (!accountIds.length) return [];
    const rows: Array<{ date: string }> = await handleOf(read).query(
      `SELECT DISTINCT to_char(date, 'YYYY-MM-DD') AS date FROM entries
       WHERE user_id = $1 AND account_id = ANY($2::bigint[]) AND NOT deleted`,
      [read.userId, accountIds],
    );
    return rows.map((row) => row.date);
  }

  /**
   * Each account's balance is its initial balance plus its entries' account amounts: recomputed from the
   * entries in one statement after a bulk change.
   */
  async recomputeTotals(change: UserChange, accountIds: string[]): Promise<void> {
    if (!accountIds.length) return;
    // Only accounts whose total moved join the change (and so come back in `since` syncs).
    await transactionOf(change).query(
      `UPDATE accounts a SET change_seq = $3, entries_total = t.total
       FROM (SELECT x.id, coalesce((SELECT sum(account_amount) FROM entries e WHERE e.account_id = x.id AND NOT e.deleted), 0) AS total
             FROM accounts x WHERE x.user_id = $1 AND x.id = ANY($2::bigint[])) t
       WHERE a.id = t.id AND a.entries_total <> t.total`,
      [change.userId, [...new Set(accountIds)], change.changeSeq],
    );
  }

  /**
   * Runs an `UPDATE entries e … RETURNING e.*` and records a revision of every returned row in the same
   * statement; answers with the count and the distinct accounts of those rows.
   */
  private async updateEntriesWithRevisions(
    change: UserChange,
    updateSql: string,
    params: unknown[],
  ): Promise<BulkResult> {
    const app = `$${params.length + 1}`;
    const rows: Array<{ count: string; account_ids: string[] | null }> = await transactionOf(change).query(
      `WITH changed AS (${updateSql}),
         revisions AS (
           INSERT INTO resource_revisions (kind, object_id, modified_at, user_id, snapshot)
           SELECT 'entries', u.id, u.modified_at, u.user_id, ${entrySnapshotSql('u', app)} FROM changed u
           ON CONFLICT DO NOTHING)
       SELECT count(*)::text AS count, array_agg(DISTINCT account_id::text) AS account_ids FROM changed`,
      [...params, change.app ?? null],
    );
    return { count: Number(rows[0].count), accountIds: rows[0].account_ids ?? [] };
  }
}
