import type { DataSource } from 'typeorm';
import { buildEntryFilters } from '../repositories/entry-filters';
import { SqlParams } from '../sync/sql-params';
import {
  accountConditions,
  EntryExportResource,
  entryConditions,
  entryFiltersFor,
  ExportScope,
} from './export-scope';
import { ReadRouting } from '../replica/read-routing';
import { RowStream, streamRowsAfter } from './row-cursor';

/**
 * The rows of an export's sheets, each streamed through its own cursor when the caller starts reading
 * (one export holds one cursor at a time), with money as exact decimal text. Column names are the keys
 * the sheets declare; every query is scoped to the export's user.
 */
export class ExportSheetRepository {
  /** `routing`: the replica, once it has the export's position (DATABASE_READ_URL); by default `source`. */
  constructor(
    source: DataSource,
    private readonly routing: ReadRouting = ReadRouting.primaryOnly(source),
  ) {}

  /** Expenses, incomes or transfers, oldest first as a statement reads; (user_id, date, id) is indexed. */
  entries(resource: EntryExportResource, scope: ExportScope): RowStream {
    const params = new SqlParams();
    const where = entryConditions(params, resource, scope);
    const sql = `SELECT to_char(t.date, 'YYYY-MM-DD') AS date, a.name AS account, c.name AS category,
        CASE WHEN cardinality(t.tag_ids) = 0 THEN NULL
          ELSE (SELECT string_agg(g.name, ', ' ORDER BY g.name) FROM tags g WHERE g.id = ANY(t.tag_ids)) END AS tags,
        trim_scale(t.amount)::text AS amount, t.currency, t.description, t.location->>'id' AS location, t.id::text AS id
      FROM entries t JOIN accounts a ON a.id = t.account_id LEFT JOIN categories c ON c.id = t.category_id
      WHERE ${where.join(' AND ')} ORDER BY t.date, t.id`;
    return streamRowsAfter(this.routing, scope.walPosition, sql, params.values);
  }

  /**
   * Totals per currency; each side honours its own resource's filters, so the summary agrees with the
   * sheets beside it. Expenses are a magnitude (docs/money.md "Signs"): entries store them negative.
   */
  summary(scope: ExportScope): RowStream {
    const params = new SqlParams();
    const side = (resource: 'expenses' | 'incomes') => entryConditions(params, resource, scope).join(' AND ');
    const sql = `SELECT currency, trim_scale(coalesce(-(sum(amount) FILTER (WHERE kind = 'e')), 0))::text AS expenses,
        count(*) FILTER (WHERE kind = 'e')::int AS expense_count,
        trim_scale(coalesce(sum(amount) FILTER (WHERE kind = 'i'), 0))::text AS incomes,
        count(*) FILTER (WHERE kind = 'i')::int AS income_count
      FROM (SELECT t.currency, t.amount, 'e' AS kind FROM entries t WHERE ${side('expenses')}
            UNION ALL SELECT t.currency, t.amount, 'i' FROM entries t WHERE ${side('incomes')}) s
      GROUP BY currency ORDER BY currency`;
    return streamRowsAfter(this.routing, scope.walPosition, sql, params.values);
  }

  /** The accounts the `accounts`/`!accounts` filters keep, with their balance now, in display order. */
  balances(scope: ExportScope): RowStream {
    const params = new SqlParams();
    const where = accountConditions(params, scope);
    const sql = `SELECT a.name AS account, a.type, a.status, trim_scale(a.initial_balance + a.entries_total)::text AS balance,
        a.currency, a.id::text AS id FROM accounts a WHERE ${where.join(' AND ')} ORDER BY a.sort_order, a.id`;
    return streamRowsAfter(this.routing, scope.walPosition, sql, params.values);
  }

  /**
   * The live budgets with an iteration in the period (their span start…end overlaps from…to; an open bound
   * matches everything), in display order; `accounts` filters keep budgets not limited to other accounts.
   */
  budgets(scope: ExportScope): RowStream {
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
    return streamRowsAfter(this.routing, scope.walPosition, sql, params.values);
  }

  /**
   * One row per entry and attached image, for entries in the period that the account and location filters
   * keep (any kind of entry: attachments are not split by type).
   */
  attachments(scope: ExportScope): RowStream {
    const params = new SqlParams();
    const { type: _all, categories: _c, tags: _t, ...filters } = entryFiltersFor('expenses', scope);
    const where = [
      `t.user_id = ${params.add(scope.userId)}`,
      'NOT t.deleted',
      "t.image_ids <> '{}'",
      ...buildEntryFilters(filters).map((filter) => `(${filter(params.add)})`),
    ];
    const sql = `SELECT to_char(t.date, 'YYYY-MM-DD') AS date, t.id::text AS entry, t.description,
        i.filename, i.type, i.id::text AS image
      FROM entries t CROSS JOIN LATERAL unnest(t.image_ids) WITH ORDINALITY AS a (image_id, position)
      JOIN images i ON i.id = a.image_id AND i.user_id = t.user_id AND NOT i.deleted
      WHERE ${where.join(' AND ')} ORDER BY t.date, t.id, a.position`;
    return streamRowsAfter(this.routing, scope.walPosition, sql, params.values);
  }
}
