import type { UserChange, UserRead } from '../sync/user-change';
import type {
  DecideUpdate,
  PageRequest,
  PageResult,
  ResourceTable,
  Snapshot,
  SyncedRecord,
} from '../sync/resource-table';
import { isResourceId } from '@pfs/contracts';
import { likePattern, type SqlFilter } from '../sync/sql-params';
import type { UsageCounter } from './reference-types';
import { countUsage } from './usage-counts';

/** The filters of every label list: its type, a search in its name, its ids. */
export interface LabelFilters {
  type?: string;
  search?: string;
  ids?: string[];
}

/** The conditions of `LabelFilters` (the label table's alias is `t`); ids that are not resource ids match none. */
export function labelFilters(filters: LabelFilters): SqlFilter[] {
  const out: SqlFilter[] = [];
  if (filters.type) out.push((p) => `t.type = ${p(filters.type)}`);
  if (filters.search) out.push((p) => `t.name ILIKE ${p(likePattern(filters.search!))}`);
  if (filters.ids) out.push((p) => `t.id = ANY(${p(filters.ids!.filter(isResourceId))}::bigint[])`);
  return out;
}

/** How one kind of named label reads its list filters and counts its uses. */
export interface NamedLabelKind<F> {
  filtersOf: (filters: F) => SqlFilter[];
  counters: UsageCounter[];
  countKeys: readonly string[];
}

/**
 * What categories and tags share (the named-label pattern that the API's `modules/labels` serves): list,
 * find, create and guarded update over the label's table, and how often each label is used. Deleting and
 * merging differ (what follows a label) and stay in each repository. Reads take a `UserRead`, writes run
 * in the caller's `UserChange`.
 */
export abstract class NamedLabelRepository<T extends SyncedRecord, F extends object> {
  protected constructor(
    protected readonly table: ResourceTable<T>,
    private readonly kind: NamedLabelKind<F>,
  ) {}

  list(read: UserRead, page: PageRequest, filters: F = {} as F): Promise<PageResult<T>> {
    return this.table.list(read, page, this.kind.filtersOf(filters));
  }

  findById(read: UserRead, id: string): Promise<T | undefined> {
    return this.table.findById(read, id);
  }

  findLiveIds(read: UserRead, ids: string[]): Promise<T[]> {
    return this.table.findByIds(read, ids);
  }

  create(change: UserChange, snapshot: Snapshot): Promise<T> {
    return this.table.insert(change, snapshot);
  }

  update(change: UserChange, id: string, decide: DecideUpdate<T>): Promise<T | undefined> {
    return this.table.updateGuarded(change, id, decide);
  }

  /** Per label id, how many entries, budgets… use it (every key of the kind, 0 when unused). */
  countsFor(read: UserRead, ids: string[]): Promise<Map<string, Record<string, number>>> {
    const zeros = Object.fromEntries(this.kind.countKeys.map((key) => [key, 0]));
    return countUsage(this.kind.counters, read, ids, zeros);
  }
}
