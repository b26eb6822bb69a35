import type { EntityManager } from 'typeorm';
import { budgetsAccountHook, budgetsCategoryHook, budgetsTagHook } from './budget-references';
import { entriesCategoryHook, entriesTagHook, entriesTagToCategoryHook } from './entry-references';
import { repeatsAccountHook } from './repeat-references';

/**
 * Moves references when categories or tags are merged or deleted, inside the same change transaction.
 * `toId` null means "unset". A hook must give every row it changes `change_seq = changeSeq` and a new
 * `modified_at`, so syncing clients see the change. The ledger appends its entries hook here.
 */
export type ReferenceHook = (
  manager: EntityManager,
  options: { userId: string; fromIds: string[]; toId: string | null; changeSeq: string },
) => Promise<void>;

/** Called when categories are merged into another (toId) or deleted (toId null). */
export const categoryReferenceHooks: ReferenceHook[] = [entriesCategoryHook, budgetsCategoryHook];
/** Called when tags are merged into another tag (toId) or deleted (toId null). */
export const tagReferenceHooks: ReferenceHook[] = [entriesTagHook, budgetsTagHook];
/** Called when tags are merged into a category: rows tagged with `fromIds` take category `toId`. */
export const tagToCategoryHooks: ReferenceHook[] = [entriesTagToCategoryHook];
/**
 * Called when accounts are merged into another (toId), after their entries moved: what else names them
 * follows (a deleted account, toId null, stays named: budgets report it as a problem, series end).
 */
export const accountMergeHooks: ReferenceHook[] = [budgetsAccountHook, repeatsAccountHook];
