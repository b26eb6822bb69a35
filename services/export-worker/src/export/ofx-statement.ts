import type { ExportResource } from '@pfs/contracts';
import { SqlParams } from '@pfs/resource-store';
import type { Writable } from 'node:stream';
import type { DataSource } from 'typeorm';
import { accountConditions, entryConditions, type ExportScope } from './export-tables';
import { type OfxAccount, type OfxTransaction, writeOfx } from './ofx.formatter';
import { streamRows } from './row-cursor';

const ENTRY_RESOURCES = ['expenses', 'incomes', 'transfers'] as const;
type EntryResource = (typeof ENTRY_RESOURCES)[number];

/**
 * The OFX file of an export: a statement per account the filters keep, holding the entries of the entry
 * resources the export chose (expenses, incomes, transfers — each with its own filters, as on their sheets).
 * Entries stream through one cursor ordered by account, so memory stays flat at any size.
 */
export async function writeOfxStatement(
  source: DataSource,
  scope: ExportScope,
  resources: ExportResource[],
  out: Writable,
): Promise<void> {
  const accountParams = new SqlParams();
  const accounts: OfxAccount[] = await source.query(
    `SELECT a.id::text AS id, a.type, a.currency, trim_scale(a.initial_balance + a.entries_total)::text AS balance
     FROM accounts a WHERE ${accountConditions(accountParams, scope).join(' AND ')} ORDER BY a.id`,
    accountParams.values,
  );
  const chosen = ENTRY_RESOURCES.filter((resource) => resources.includes(resource));
  const params = new SqlParams();
  const selected = chosen.length
    ? chosen
        .map((resource: EntryResource) => `(${entryConditions(params, resource, scope).join(' AND ')})`)
        .join(' OR ')
    : 'false';
  const sql = `SELECT t.account_id::text AS account_id, t.id::text AS id, to_char(t.date, 'YYYY-MM-DD') AS date,
      trim_scale(t.account_amount)::text AS account_amount, trim_scale(t.amount)::text AS amount, t.currency,
      trim_scale(t.rate)::text AS rate, t.description, c.name AS category, t.transaction_id IS NOT NULL AS is_transfer
    FROM entries t LEFT JOIN categories c ON c.id = t.category_id
    WHERE ${selected} ORDER BY t.account_id, t.date, t.id`;
  await writeOfx(
    {
      accounts,
      transactions: streamRows(source, sql, params.values) as AsyncIterable<OfxTransaction>,
      from: scope.from,
      to: scope.to,
      now: new Date(),
    },
    out,
  );
}
