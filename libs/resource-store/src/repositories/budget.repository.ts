import type { DataSource, EntityManager } from 'typeorm';
import { RawRow, ResourceTable, Snapshot, SyncedRecord } from '../sync/resource-table';
import type { SqlFilter } from '../sync/sql-params';
import { toAmountText, toDateString, toOptionalAmount } from './ledger-values';

export const BUDGET_TYPES = ['regular', 'delta', 'percent'] as const;
export const BUDGET_FREQUENCIES = ['one-time', 'daily', 'weekly', 'monthly', 'yearly'] as const;
export const BUDGET_STATUSES = ['active', 'inactive', 'archived'] as const;
/** The six filter lists of a budget, as the API names them. */
export const BUDGET_REFERENCE_FIELDS = [
  'categories',
  '!categories',
  'tags',
  '!tags',
  'accounts',
  '!accounts',
] as const;
export type BudgetReferenceField = (typeof BUDGET_REFERENCE_FIELDS)[number];

export interface BudgetRecurrence {
  frequency: (typeof BUDGET_FREQUENCIES)[number];
  interval: number;
  start: string;
  end?: string;
  byday?: string;
  bymonthday?: string;
  bysetpos?: string;
}

/** A budget as stored: what the client wrote. Iteration figures are computed at read (budget figures). */
export interface Budget extends SyncedRecord {
  name: string;
  type: (typeof BUDGET_TYPES)[number];
  /** Exact decimal text; stored for regular budgets only (delta and percent limits are computed). */
  limit: string | null;
  delta: string | null;
  percent: string | null;
  currency: { code: string; rate?: string; fixed: boolean };
  recurrence: BudgetRecurrence;
  rollover: boolean;
  /** Set by the client: replaces the computed carry-over. */
  rolloverAmount: string | null;
  order: number;
  status: string;
  references: Record<BudgetReferenceField, string[]>;
}

const REFERENCE_COLUMNS: Record<BudgetReferenceField, string> = {
  categories: 'category_ids',
  '!categories': 'excluded_category_ids',
  tags: 'tag_ids',
  '!tags': 'excluded_tag_ids',
  accounts: 'account_ids',
  '!accounts': 'excluded_account_ids',
};

const ids = (value: unknown): string[] => ((value as unknown[] | null) ?? []).map(String);

export const budgetsTable = new ResourceTable<Budget>({
  table: 'budgets',
  kind: 'budgets',
  columns: [
    'name',
    'type',
    'limit_amount',
    'delta',
    'percent',
    'currency',
    'currency_rate',
    'currency_fixed',
    'frequency',
    'interval',
    'start_date',
    'end_date',
    'byday',
    'bymonthday',
    'bysetpos',
    'rollover',
    'rollover_amount',
    'sort_order',
    'status',
    ...Object.values(REFERENCE_COLUMNS),
  ],
  toRecord: (row: RawRow): Budget => ({
    ...ResourceTable.commonFields(row),
    name: String(row.name),
    type: row.type as Budget['type'],
    limit: toOptionalAmount(row.limit_amount),
    delta: toOptionalAmount(row.delta),
    percent: toOptionalAmount(row.percent),
    currency: {
      code: String(row.currency),
      ...(row.currency_rate === null ? {} : { rate: toAmountText(row.currency_rate) }),
      fixed: Boolean(row.currency_fixed),
    },
    recurrence: {
      frequency: row.frequency as BudgetRecurrence['frequency'],
      interval: Number(row.interval),
      start: toDateString(row.start_date),
      ...(row.end_date === null ? {} : { end: toDateString(row.end_date) }),
      ...(row.byday === null ? {} : { byday: String(row.byday) }),
      ...(row.bymonthday === null ? {} : { bymonthday: String(row.bymonthday) }),
      ...(row.bysetpos === null ? {} : { bysetpos: String(row.bysetpos) }),
    },
    rollover: Boolean(row.rollover),
    rolloverAmount: toOptionalAmount(row.rollover_amount),
    order: Number(row.sort_order),
    status: String(row.status),
    references: Object.fromEntries(
      Object.entries(REFERENCE_COLUMNS).map(([field, column]) => [field, ids(row[column])]),
    ) as Record<BudgetReferenceField, string[]>,
  }),
  toSnapshot: (budget: Budget): BudgetSnapshot => ({
    name: budget.name,
    type: budget.type,
    ...(budget.limit !== null ? { limit: budget.limit } : {}),
    ...(budget.delta !== null ? { delta: budget.delta } : {}),
    ...(budget.percent !== null ? { percent: budget.percent } : {}),
    currency: budget.currency,
    recurrence: budget.recurrence,
    rollover: budget.rollover,
    ...(budget.rolloverAmount !== null ? { rollover_amount: budget.rolloverAmount } : {}),
    order: budget.order,
    status: budget.status,
    ...Object.fromEntries(
      BUDGET_REFERENCE_FIELDS.filter((field) => budget.references[field].length).map((field) => [
        field,
        budget.references[field],
      ]),
    ),
    ...(budget.extra ? { extra: budget.extra } : {}),
  }),
  toColumns: (snapshot: Snapshot) => {
    const budget = snapshot as BudgetSnapshot;
    return {
      name: budget.name,
      type: budget.type,
      limit_amount: budget.limit ?? null,
      delta: budget.delta ?? null,
      percent: budget.percent ?? null,
      currency: budget.currency.code,
      currency_rate: budget.currency.rate ?? null,
      currency_fixed: budget.currency.fixed,
      frequency: budget.recurrence.frequency,
      interval: budget.recurrence.interval,
      start_date: budget.recurrence.start,
      end_date: budget.recurrence.end ?? null,
      byday: budget.recurrence.byday ?? null,
      bymonthday: budget.recurrence.bymonthday ?? null,
      bysetpos: budget.recurrence.bysetpos ?? null,
      rollover: budget.rollover,
      rollover_amount: budget.rollover_amount ?? null,
      sort_order: budget.order,
      status: budget.status,
      ...Object.fromEntries(
        BUDGET_REFERENCE_FIELDS.map((field) => [REFERENCE_COLUMNS[field], budget[field] ?? []]),
      ),
      extra: budget.extra ? JSON.stringify(budget.extra) : null,
    };
  },
});

/** The writable state of a budget in API shape (stored per revision). Amounts are exact decimal text. */
export interface BudgetSnapshot extends Snapshot {
  name: string;
  type: Budget['type'];
  limit?: string;
  delta?: string;
  percent?: string;
  currency: Budget['currency'];
  recurrence: BudgetRecurrence;
  rollover: boolean;
  rollover_amount?: string;
  order: number;
  status: string;
  categories?: string[];
  '!categories'?: string[];
  tags?: string[];
  '!tags'?: string[];
  accounts?: string[];
  '!accounts'?: string[];
  extra?: Record<string, unknown>;
}

/** List filters of `/budgets`; `from`/`to` keep the budgets with an iteration in that range. */
export interface BudgetListFilters {
  from: string;
  to: string;
  categories?: string[];
  tags?: string[];
  accounts?: string[];
  search?: string;
}

const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * Iterations cover `start` to `end` (or on without an end) without gaps, so a budget has an iteration in
 * [from, to] exactly when its span overlaps it: the filter is exact and pagination counts stay right.
 */
export function budgetListFilters(filters: BudgetListFilters): SqlFilter[] {
  const out: SqlFilter[] = [
    (p) => `t.start_date <= ${p(filters.to)}::date`,
    (p) => `(t.end_date IS NULL OR t.end_date >= ${p(filters.from)}::date)`,
  ];
  for (const [list, column] of [
    [filters.categories, 'category_ids'],
    [filters.tags, 'tag_ids'],
    [filters.accounts, 'account_ids'],
  ] as const) {
    if (list) out.push((p) => `t.${column} && ${p(list)}::bigint[]`);
  }
  if (filters.search) out.push((p) => `t.name ILIKE ${p(escapeLike(filters.search!))}`);
  return out;
}

/** Budget-specific SQL beyond the shared table helpers. Returns plain data. */
export class BudgetRepository {
  readonly table = budgetsTable;

  constructor(private readonly source: DataSource) {}

  /** The next free position at the end of the user's order. */
  async nextOrder(manager: EntityManager | DataSource, userId: string): Promise<number> {
    const [row] = await manager.query(
      `SELECT coalesce(max(sort_order) + 1, 0)::int AS next FROM budgets WHERE user_id = $1 AND NOT deleted`,
      [userId],
    );
    return Math.min(row.next, 255);
  }

  /** Ids of the user's live budgets in display order (order, then id). */
  async idsInOrder(manager: EntityManager | DataSource, userId: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await manager.query(
      `SELECT id::text AS id FROM budgets WHERE user_id = $1 AND NOT deleted ORDER BY sort_order, id`,
      [userId],
    );
    return rows.map((row) => row.id);
  }

  /**
   * The user's live, active regular budgets without any filter, lowest order first: the candidates for the
   * overall budget of `/me/summary`.
   */
  async findOverallCandidates(userId: string): Promise<Budget[]> {
    const rows: Array<{ id: string }> = await this.source.query(
      `SELECT id::text AS id FROM budgets
       WHERE user_id = $1 AND NOT deleted AND status = 'active' AND type = 'regular'
         AND cardinality(category_ids) = 0 AND cardinality(excluded_category_ids) = 0
         AND cardinality(tag_ids) = 0 AND cardinality(excluded_tag_ids) = 0
         AND cardinality(account_ids) = 0 AND cardinality(excluded_account_ids) = 0
       ORDER BY sort_order, id`,
      [userId],
    );
    const found = await budgetsTable.findByIds(
      this.source,
      userId,
      rows.map((row) => row.id),
    );
    return rows.map((row) => found.find((budget) => budget.id === row.id)!).filter(Boolean);
  }

  /** Among `ids` of each kind, those the user deleted (a budget referencing them has a problem). */
  async findDeletedReferences(
    source: EntityManager | DataSource,
    userId: string,
    referenced: { categories: string[]; tags: string[]; accounts: string[] },
  ): Promise<{ categories: Set<string>; tags: Set<string>; accounts: Set<string> }> {
    const rows: Array<{ kind: 'categories' | 'tags' | 'accounts'; id: string }> = await source.query(
      `SELECT 'categories' AS kind, id::text AS id FROM categories WHERE user_id = $1 AND deleted AND id = ANY($2::bigint[])
       UNION ALL SELECT 'tags', id::text FROM tags WHERE user_id = $1 AND deleted AND id = ANY($3::bigint[])
       UNION ALL SELECT 'accounts', id::text FROM accounts WHERE user_id = $1 AND deleted AND id = ANY($4::bigint[])`,
      [userId, referenced.categories, referenced.tags, referenced.accounts],
    );
    const result = { categories: new Set<string>(), tags: new Set<string>(), accounts: new Set<string>() };
    for (const row of rows) result[row.kind].add(row.id);
    return result;
  }

  get dataSource(): DataSource {
    return this.source;
  }
}
