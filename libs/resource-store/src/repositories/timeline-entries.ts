import type { PageRequest, PageResult } from '../sync/resource-table';
import type { SqlFilter } from '../sync/sql-params';
import { routedRead, type UserRead } from '../sync/user-change';
import { type Entry, entriesTable } from './entry.repository';

/**
 * The entries of a timeline (GET /entries/timeline): the entries list's page, read where heavy reads go (the
 * replica once it has the user's last write, see ReadRouting), since a timeline scans a whole period.
 */
export async function listTimelineEntries(
  read: UserRead,
  request: PageRequest,
  filters: SqlFilter[],
): Promise<PageResult<Entry>> {
  return entriesTable.list(await routedRead(read), request, filters);
}
