import type { UserChange, UserRead } from '../sync/user-change';

/**
 * Moves references when objects are merged or deleted, inside the same change. `toId` null means "unset".
 * A hook must give every row it changes the change's sequence and a new `modified_at`, so syncing clients
 * see the change. (The types live apart from the hook lists so that the files defining hooks do not import
 * the lists that import them.)
 */
export type ReferenceHook = (
  change: UserChange,
  options: { fromIds: string[]; toId: string | null },
) => Promise<void>;

/** One count of one object: `key` is a member of the object's `counts` (`entries`, `budgets`, …). */
export interface UsageCount {
  id: string;
  key: string;
  count: number;
}

/**
 * Counts usage of categories or tags by other resources. Categories and tags report `counts` with zeros
 * until a counter fills a key (one array entry per counter in usage-counts.ts), so counts grow with the
 * schema without touching these repositories.
 */
export type UsageCounter = (read: UserRead, ids: string[]) => Promise<UsageCount[]>;
