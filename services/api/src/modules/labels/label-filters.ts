import { isResourceId } from '@pfs/contracts';
import { parseEnumParam, parseListParam, parseSearchParam } from '@pfs/resource-api';

/** The list filters every named label has: its type (among `types`), a name search and a list of ids. */
export function labelFilters(query: Record<string, unknown>, types: string[]) {
  return {
    type: parseEnumParam(query, 'type', types),
    search: parseSearchParam(query, 100),
    ids: parseListParam(query, 'ids', isResourceId),
  };
}
