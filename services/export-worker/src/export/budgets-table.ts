import type { DataSource } from 'typeorm';
import { SqlParams } from '@pfs/resource-store';
import type { ExportTable } from './export-table';
import type { ExportScope } from './export-tables';
import { streamRows } from './row-cursor';

/**
 * The `budgets` sheet: the user's live budgets with an iteration in the export period (their span
 * start…end overlaps from…to; an open bound matches everything), in display order. One row per budget with
 * its definition; iteration figures (amount, rollover) are computed by the API at read and are not
 * repeated here. `accounts`/`!accounts` filters keep budgets that are not limited to other accounts.
 */
export function budgetsTable(source: DataSource, scope: ExportScope): ExportTable {
  return {
    name: 'budgets',
    title: 'Budgets',
    columns: [
      { key: 'name', header: 'Budget', kind: 'text' },
      { key: 'limit', header: 'Limit', kind: 'decimal' },
      { key: 'currency', header: 'Currency', kind: 'text' },
      { key: 'type', header: 'Type', kind: 'text' },
      { key: 'delta', header: 'Delta', kind: 'decimal' },
      { key: 'percent', header: 'Percent', kind: 'decimal' },
      { key: 'frequency', header: 'Frequency', kind: 'text' },
      { key: 'interval', header: 'Interval', kind: 'integer' },
      { key: 'start', header: 'Start', kind: 'date' },
      { key: 'end', header: 'End', kind: 'date' },
      { key: 'rollover', header: 'Rollover', kind: 'text' },
      { key: 'status', header: 'Status', kind: 'text' },
      { key: 'id', header: 'Budget id', kind: 'text' },
    ],
    openRows() {
      const params = new SqlParams();
      const where = [`b.user_id = ${params.add(scope.userId)}`, 'NOT b.deleted'];
      if (scope.to) where.push(`b.start_date <= ${params.add(scope.to)}::date`);
      if (scope.from) where.push(`(b.end_date IS NULL OR b.end_date >= ${params.add(scope.from)}::date)`);
      const accounts = scope.filters?.accounts;
      if (accounts?.length) {
        where.push(`(cardinality(b.account_ids) = 0 OR b.account_ids && ${params.add(accounts)}::bigint[])`);
      }
      const sql = `SELECT b.name, trim_scale(b.limit_amount)::text AS limit, b.currency, b.type,
          trim_scale(b.delta)::text AS delta, trim_scale(b.percent)::text AS percent, b.frequency, b.interval::int AS interval,
          to_char(b.start_date, 'YYYY-MM-DD') AS start, to_char(b.end_date, 'YYYY-MM-DD') AS "end",
          CASE WHEN b.rollover THEN 'yes' ELSE 'no' END AS rollover, b.status, b.id::text AS id
        FROM budgets b WHERE ${where.join(' AND ')} ORDER BY b.sort_order, b.id`;
      return streamRows(source, sql, params.values);
    },
  };
}
