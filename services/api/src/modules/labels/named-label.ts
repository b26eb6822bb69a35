import type {
  DecideUpdate,
  PageRequest,
  PageResult,
  Snapshot,
  SyncedRecord,
  UserChange,
  UserRead,
} from '@pfs/resource-store';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler } from '../../http/api-operation';

/** Counts of a label's uses, by kind (entries, budgets, …), as the repository reports them. */
export type LabelCounts = Record<string, number>;

/** What the named-label handlers need of a store repository (categories and tags have the same shape). */
export interface NamedLabelRepository<T extends SyncedRecord, F> {
  list(read: UserRead, page: PageRequest, filters: F): Promise<PageResult<T>>;
  findById(read: UserRead, id: string): Promise<T | undefined>;
  create(change: UserChange, snapshot: Snapshot): Promise<T>;
  update(change: UserChange, id: string, decide: DecideUpdate<T>): Promise<T | undefined>;
  delete(change: UserChange, id: string): Promise<boolean>;
  countsFor(read: UserRead, ids: string[]): Promise<Map<string, LabelCounts>>;
}

/**
 * A named, typed label resource (categories, tags): what differs between them is given here, the
 * operations and their handlers are the same (see namedLabelOperations).
 */
export interface NamedLabelSpec<T extends SyncedRecord, F> {
  /** The resource and schema name, the path segment and the scope prefix (`categories`). */
  resource: string;
  /** The singular noun of the link titles (`category`). */
  singular: string;
  /** For 404 messages (`Category`). */
  what: string;
  /** The list operation's hrefSchema (its query parameters). */
  listQuery: Record<string, unknown>;
  /** The list's default page size when the resource has its own. */
  defaultPerPage?: number;
  /** The list filters, read from the query string (400 naming the parameter when one is wrong). */
  filters: (query: Record<string, unknown>) => F;
  toSnapshot: (record: T) => Snapshot;
  present: (record: T, counts?: LabelCounts) => Record<string, unknown>;
  /** The merge operation: its title and submission schema; its handler is the module's own. */
  mergeLink: { title: string; submission: Record<string, unknown> };
  /** Built once per app from the dependencies: the repository, the resource's rules and its merge. */
  bind: (deps: ApiDependencies) => NamedLabelBinding<T, F>;
}

export interface NamedLabelBinding<T extends SyncedRecord, F> {
  repository: NamedLabelRepository<T, F>;
  /** Refuses to change or delete a record (e.g. system categories are read-only). */
  guard?: (record: T) => void;
  /** Checks the final state of a create or update (e.g. a referenced id belongs to the user). */
  check?: (read: UserRead) => (state: Snapshot) => Promise<void>;
  merge: ApiHandler;
}
