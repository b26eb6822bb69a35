import type { DataSource } from 'typeorm';
import { SqlParams } from '../sync/sql-params';
import { accountConditions, EntryExportResource, entryConditions, ExportScope } from './export-scope';
import { ReadRouting } from '../replica/read-routing';
import { streamRowsAfter } from './row-cursor';

/** One account's statement header: what OFX's STMTRS names before the transactions. */
export interface StatementAccount {
  id: string;
  type: string;
  currency: string;
  /** The account's balance now (initial balance + every live entry), exact decimal text. */
  balance: string;
}

/**
 * One transaction of a statement: `account_amount` is in the account's currency; `amount`/`currency`/`rate`
 * are the entry's own when it was in another currency.
 */
export interface StatementTransaction {
  account_id: string;
  id: string;
  date: string;
  account_amount: string;
  amount: string;
  currency: string;
  rate: string;
  description: string | null;
  category: string | null;
  is_transfer: boolean;
}

/** The rows of an export's bank statement (OFX): its accounts, then their entries by one cursor. */
export class ExportStatementRepository {
  /** `routing`: the replica, once it has the export's position (DATABASE_READ_URL); by default `source`. */
  constructor(
    source: DataSource,
    private readonly routing: ReadRouting = ReadRouting.primaryOnly(source),
  ) {}

  /** The accounts the `accounts`/`!accounts` filters keep, in id order. */
  async accounts(scope: ExportScope): Promise<StatementAccount[]> {
    const params = new SqlParams();
    return (await this.routing.sourceAfter(scope.walPosition)).query(
      `SELECT a.id::text AS id, a.type, a.currency, trim_scale(a.initial_balance + a.entries_total)::text AS balance
       FROM accounts a WHERE ${accountConditions(params, scope).join(' AND ')} ORDER BY a.id`,
      params.values,
    );
  }

  /**
   * The entries of the chosen entry resources (each with its own filters, as on their sheets), ordered by
   * account, date and id, streamed through one cursor so memory stays flat at any size.
   */
  transactions(
    scope: ExportScope,
    resources: readonly EntryExportResource[],
  ): AsyncIterable<StatementTransaction> {
    const params = new SqlParams();
    const selected = resources.length
      ? resources
          .map((resource) => `(${entryConditions(params, resource, scope).join(' AND ')})`)
          .join(' OR ')
      : 'false';
    const sql = `SELECT t.account_id::text AS account_id, t.id::text AS id, to_char(t.date, 'YYYY-MM-DD') AS date,
        trim_scale(t.account_amount)::text AS account_amount, trim_scale(t.amount)::text AS amount, t.currency,
        trim_scale(t.rate)::text AS rate, t.description, c.name AS category, t.transaction_id IS NOT NULL AS is_transfer
      FROM entries t LEFT JOIN categories c ON c.id = t.category_id
      WHERE ${selected} ORDER BY t.account_id, t.date, t.id`;
    return streamRowsAfter<StatementTransaction>(this.routing, scope.walPosition, sql, params.values);
  }
}
