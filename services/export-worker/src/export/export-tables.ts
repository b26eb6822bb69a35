import type { ExportFilters, ExportResource, ExportResourceFilters } from '@pfs/contracts';
import { buildEntryFilters, EntryFilters, IdFilter, SqlParams } from '@pfs/resource-store';
import type { DataSource } from 'typeorm';
import { budgetsTable } from './budgets-table';
import { ExportColumn, ExportTable } from './export-table';
import { streamRows } from './row-cursor';

/** What an export's tables are cut from: the user, the period and the filters. */
export interface ExportScope {
  userId: string;
  from: string | null;
  to: string | null;
  filters: ExportFilters | null;
}

const ENTRY_COLUMNS: ExportColumn[] = [
  { key: 'date', header: 'Date', kind: 'date' },
  { key: 'account', header: 'Account', kind: 'text' },
  { key: 'category', header: 'Category', kind: 'text' },
  { key: 'tags', header: 'Tags', kind: 'text' },
  { key: 'amount', header: 'Amount', kind: 'decimal' },
  { key: 'currency', header: 'Currency', kind: 'text' },
  { key: 'description', header: 'Description', kind: 'text' },
  { key: 'location', header: 'Location', kind: 'text' },
  { key: 'id', header: 'Entry id', kind: 'text' },
];

const idFilters = (ids: string[] | undefined, negate: boolean): IdFilter[] =>
  ids && ids.length ? [{ ids, negate }] : [];

/**
 * The spec's export filters as the entries list understands them: `accounts`/`!accounts` and
 * `locations`/`!locations` apply to every entry resource; `categories`/`tags` (and their `!` twins)
 * only to the resource they are keyed under.
 */
export function entryFiltersFor(
  resource: 'expenses' | 'incomes' | 'transfers',
  scope: ExportScope,
): EntryFilters {
  const filters = scope.filters ?? {};
  const own: ExportResourceFilters = resource === 'transfers' ? {} : (filters[resource] ?? {});
  return {
    from: scope.from ?? undefined,
    to: scope.to ?? undefined,
    type: resource === 'expenses' ? 'expense' : resource === 'incomes' ? 'income' : 'transaction',
    accounts: [...idFilters(filters.accounts, false), ...idFilters(filters['!accounts'], true)],
    locations: [...idFilters(filters.locations, false), ...idFilters(filters['!locations'], true)],
    categories: [...idFilters(own.categories, false), ...idFilters(own['!categories'], true)],
    tags: [...idFilters(own.tags, false), ...idFilters(own['!tags'], true)],
  };
}

function entriesTable(
  source: DataSource,
  resource: 'expenses' | 'incomes' | 'transfers',
  scope: ExportScope,
): ExportTable {
  const title = { expenses: 'Expenses', incomes: 'Incomes', transfers: 'Transfers' }[resource];
  return {
    name: resource,
    title,
    columns: ENTRY_COLUMNS,
    openRows() {
      const params = new SqlParams();
      const where = entryConditions(params, resource, scope);
      // Oldest first, as a statement reads; (user_id, date, id) is indexed.
      const sql = `SELECT to_char(t.date, 'YYYY-MM-DD') AS date, a.name AS account, c.name AS category,
          CASE WHEN cardinality(t.tag_ids) = 0 THEN NULL
            ELSE (SELECT string_agg(g.name, ', ' ORDER BY g.name) FROM tags g WHERE g.id = ANY(t.tag_ids)) END AS tags,
          trim_scale(t.amount)::text AS amount, t.currency, t.description, t.location->>'id' AS location, t.id::text AS id
        FROM entries t JOIN accounts a ON a.id = t.account_id LEFT JOIN categories c ON c.id = t.category_id
        WHERE ${where.join(' AND ')} ORDER BY t.date, t.id`;
      return streamRows(source, sql, params.values);
    },
  };
}

/** The live entries of the export's user that one resource's filters select (alias `t`). */
export function entryConditions(
  params: SqlParams,
  resource: Parameters<typeof entryFiltersFor>[0],
  scope: ExportScope,
) {
  return [
    `t.user_id = ${params.add(scope.userId)}`,
    'NOT t.deleted',
    ...buildEntryFilters(entryFiltersFor(resource, scope)).map((filter) => `(${filter(params.add)})`),
  ];
}

function summaryTable(source: DataSource, scope: ExportScope): ExportTable {
  return {
    name: 'summary',
    title: 'Summary',
    columns: [
      { key: 'currency', header: 'Currency', kind: 'text' },
      { key: 'expenses', header: 'Expenses', kind: 'decimal' },
      { key: 'expense_count', header: 'Expense count', kind: 'integer' },
      { key: 'incomes', header: 'Incomes', kind: 'decimal' },
      { key: 'income_count', header: 'Income count', kind: 'integer' },
    ],
    openRows() {
      // Each side honours its own resource's filters, so the summary agrees with the sheets beside it.
      const params = new SqlParams();
      const side = (resource: 'expenses' | 'incomes') =>
        entryConditions(params, resource, scope).join(' AND ');
      // Expenses are a magnitude (docs/money.md "Signs"), as in the API's sums and summary: entries store them negative.
      const sql = `SELECT currency, trim_scale(coalesce(-(sum(amount) FILTER (WHERE kind = 'e')), 0))::text AS expenses,
          count(*) FILTER (WHERE kind = 'e')::int AS expense_count,
          trim_scale(coalesce(sum(amount) FILTER (WHERE kind = 'i'), 0))::text AS incomes,
          count(*) FILTER (WHERE kind = 'i')::int AS income_count
        FROM (SELECT t.currency, t.amount, 'e' AS kind FROM entries t WHERE ${side('expenses')}
              UNION ALL SELECT t.currency, t.amount, 'i' FROM entries t WHERE ${side('incomes')}) s
        GROUP BY currency ORDER BY currency`;
      return streamRows(source, sql, params.values);
    },
  };
}

/** The live accounts of the export's user that the `accounts`/`!accounts` filters keep (alias `a`). */
export function accountConditions(params: SqlParams, scope: ExportScope): string[] {
  const where = [`a.user_id = ${params.add(scope.userId)}`, 'NOT a.deleted'];
  const filters = scope.filters ?? {};
  if (filters.accounts?.length) where.push(`a.id = ANY(${params.add(filters.accounts)}::bigint[])`);
  if (filters['!accounts']?.length)
    where.push(`NOT (a.id = ANY(${params.add(filters['!accounts'])}::bigint[]))`);
  return where;
}

function balancesTable(source: DataSource, scope: ExportScope): ExportTable {
  return {
    name: 'balances',
    title: 'Balances',
    columns: [
      { key: 'account', header: 'Account', kind: 'text' },
      { key: 'type', header: 'Type', kind: 'text' },
      { key: 'status', header: 'Status', kind: 'text' },
      { key: 'balance', header: 'Balance', kind: 'decimal' },
      { key: 'currency', header: 'Currency', kind: 'text' },
      { key: 'id', header: 'Account id', kind: 'text' },
    ],
    openRows() {
      const params = new SqlParams();
      const where = accountConditions(params, scope);
      const sql = `SELECT a.name AS account, a.type, a.status, trim_scale(a.initial_balance + a.entries_total)::text AS balance,
          a.currency, a.id::text AS id FROM accounts a WHERE ${where.join(' AND ')} ORDER BY a.sort_order, a.id`;
      return streamRows(source, sql, params.values);
    },
  };
}

/**
 * The images attached to the export's entries: one row per entry and image, for entries in the period
 * that the account and location filters keep (any kind of entry: attachments are not split by type).
 */
function attachmentsTable(source: DataSource, scope: ExportScope): ExportTable {
  return {
    name: 'attachments',
    title: 'Attachments',
    columns: [
      { key: 'date', header: 'Date', kind: 'date' },
      { key: 'entry', header: 'Entry id', kind: 'text' },
      { key: 'description', header: 'Description', kind: 'text' },
      { key: 'filename', header: 'File', kind: 'text' },
      { key: 'type', header: 'Type', kind: 'text' },
      { key: 'image', header: 'Image id', kind: 'text' },
    ],
    openRows() {
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
      return streamRows(source, sql, params.values);
    },
  };
}

/** The table of one export resource. */
export function tableFor(source: DataSource, resource: ExportResource, scope: ExportScope): ExportTable {
  switch (resource) {
    case 'expenses':
    case 'incomes':
    case 'transfers':
      return entriesTable(source, resource, scope);
    case 'summary':
      return summaryTable(source, scope);
    case 'balances':
      return balancesTable(source, scope);
    case 'budgets':
      return budgetsTable(source, scope);
    case 'attachments':
      return attachmentsTable(source, scope);
  }
}
