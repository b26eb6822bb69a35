import { RawRow, ResourceTable, Snapshot, SyncedRecord } from '../sync/resource-table';
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
  toRecord: (row: RawRow): Budget =>
    ResourceTable.withCommonFields(row, {
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
