import type { ExportFilters, ExportResourceFilters } from '@pfs/contracts';
import { buildEntryFilters, EntryFilters, IdFilter } from '../repositories/entry-filters';
import type { SqlParams } from '../sync/sql-params';

/** What an export's rows are cut from: the user, the period and the filters. */
export interface ExportScope {
  userId: string;
  from: string | null;
  to: string | null;
  filters: ExportFilters | null;
  /** The primary's WAL position the rows must include (the export's `walPosition`): see ReadRouting. */
  walPosition?: string | null;
}

/** The export resources made of entries. */
export type EntryExportResource = 'expenses' | 'incomes' | 'transfers';

const idFilters = (ids: string[] | undefined, negate: boolean): IdFilter[] =>
  ids && ids.length ? [{ ids, negate }] : [];

/**
 * The spec's export filters as the entries list understands them: `accounts`/`!accounts` and
 * `locations`/`!locations` apply to every entry resource; `categories`/`tags` (and their `!` twins)
 * only to the resource they are keyed under.
 */
export function entryFiltersFor(resource: EntryExportResource, scope: ExportScope): EntryFilters {
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

/** The live entries of the export's user that one resource's filters select (alias `t`). */
export function entryConditions(params: SqlParams, resource: EntryExportResource, scope: ExportScope) {
  return [
    `t.user_id = ${params.add(scope.userId)}`,
    'NOT t.deleted',
    ...buildEntryFilters(entryFiltersFor(resource, scope)).map((filter) => `(${filter(params.add)})`),
  ];
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
