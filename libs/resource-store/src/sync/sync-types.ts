import type { CustomRate } from '@pfs/money';

/** Columns every resource table has (see docs/conventions.md), as plain data. */
export interface SyncedRecord {
  id: string;
  createdAt: Date;
  modifiedAt: Date;
  changeSeq: string;
  deleted: boolean;
  extra: Record<string, unknown> | null;
}

/** A row as pg returns it: snake_case column names. */
export type RawRow = Record<string, unknown>;
/** The writable fields of an object in API shape, as stored per revision for three-way merges. */
export type Snapshot = Record<string, unknown>;

/**
 * A guarded update's decision: given the current record (locked) and a loader of the snapshot a client's
 * `modified` named, the snapshot to write (see ResourceTable.updateGuarded).
 */
export type DecideUpdate<T> = (
  current: T,
  loadRevision: (modifiedAt: Date) => Promise<Snapshot | undefined>,
) => Promise<Snapshot>;

/**
 * Remembers list totals. A total depends only on the filters and on the user's data, and the user's
 * watermark changes with every write, so a total stored under (filters, watermark) never goes stale.
 */
export interface TotalCountCache {
  get(watermark: string): Promise<number | undefined>;
  set(watermark: string, total: number): Promise<void>;
}

export interface PageRequest {
  perPage: number;
  /** When given, X-Total-Count is served from it and `count(*)` runs only after a write. */
  totalCache?: TotalCountCache;
  /**
   * An SQL expression (given the user id's parameter) that is the total exactly, such as the per-account entry
   * counts kept with every write: evaluated in the page's own statement (same snapshot, no second round trip)
   * instead of `count(*)`. Only for a list whose filters it matches (every live row of the user).
   */
  totalSql?: (userParameter: string) => string;
  /** Used when no keyset position is given (a client computing pages itself). */
  offset: number;
  /** Only rows changed after this change sequence (a verified `since`). */
  sinceSeq?: string;
  /** Keyset position: rows strictly after this one in list order (from a Link `cursor`). */
  after?: { changeSeq: string; id: string };
  includeDeleted: boolean;
  /**
   * Also read the user's list state (version and currency settings, see UserStore.listState) in the page's own
   * statement, same snapshot: `PageResult.listState`. For a list that needs it and has not read it yet.
   */
  withListState?: boolean;
  /**
   * A presented page (ResourceTable.listPresented) whose caller read the user's main currency before the page
   * (its list state): the stored representations, written as if in the main currency, are used only for rows in
   * this one, the one the caller presents the others with, not in the one the users row holds when the page is
   * read (a main-currency change committing between the two reads would otherwise mix them in one answer).
   */
  presentedMain?: string;
}

export interface PageResult<T> {
  items: T[];
  /** Whether rows follow this page (one more row was read to know it). */
  hasMore: boolean;
  /** Rows matching the filters (and `since`), over all pages. */
  total: number;
  /** The user's change sequence in the same snapshot as `items`: the next `since`. */
  watermark: string;
  /** When the user's data last changed (for Last-Modified of lists). */
  lastChange?: Date;
  /** Asked with `withListState`: the user's list state in the page's snapshot. */
  listState?: ListState;
}

/**
 * A page whose items are their final representations as JSON text where the store could write them
 * (ResourceTable.listPresented), the others records for the caller to present.
 */
export interface PresentedPageResult<T> extends Omit<PageResult<T>, 'items'> {
  /** Empty when `json` is given. */
  items: Array<string | T>;
  /**
   * When the store wrote every item: the page's JSON array as UTF-8 bytes (presented-json.ts), to send as it is;
   * `items` is then empty.
   */
  json?: Buffer;
  /** The last item's keyset position (the next page's cursor starts after it). */
  last?: { changeSeq: string; id: string };
  /** The latest `modified_at` of the items. */
  newest?: Date;
}

/** A user's list version and the currency settings lists are presented with (see UserStore.listState). */
export interface ListState {
  version: string;
  settings: { main: string; customRates: CustomRate[] };
}
