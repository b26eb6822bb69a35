import type { ReferenceHook } from './reference-types';
import { budgetsAccountHook, budgetsCategoryHook, budgetsTagHook } from './budget-references';
import { entriesCategoryHook, entriesTagHook, entriesTagToCategoryHook } from './entry-references';
import { repeatsAccountHook } from './repeat-references';

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
