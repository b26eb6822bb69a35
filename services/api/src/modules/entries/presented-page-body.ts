import type { Entry, ListState, UserRead } from '@pfs/resource-store';
import type { PresenterFor } from './entry-presenter-for';

/**
 * The JSON text of a page of entries (what JSON.stringify of the presented array gives) from a page whose items
 * are representations Postgres keeps (entry-presented-line.ts: joined as they are) or entries, which
 * `presenterFor` presents (with their companions, images, series and main rates, read for those only).
 */
export async function presentedPageBody(
  presenterFor: PresenterFor,
  read: UserRead,
  items: ReadonlyArray<string | Entry>,
  settings: ListState['settings'],
): Promise<string> {
  const entries = items.filter((item): item is Entry => typeof item !== 'string');
  if (!entries.length) return `[${items.join(',')}]`;
  const present = await presenterFor(read, entries, settings);
  return `[${items.map((item) => (typeof item === 'string' ? item : JSON.stringify(present(item)))).join(',')}]`;
}
