import type { Entry, ListState, PresentedPageResult, UserRead } from '@pfs/resource-store';
import type { PresenterFor } from './entry-presenter-for';

/**
 * The body of a page of entries (what JSON.stringify of the presented array gives): the page's JSON array as
 * the store gave it when Postgres wrote every item (presented-json.ts: bytes, sent as they are), else the JSON
 * text of its items, those Postgres keeps (entry-presented-line.ts) joined as they are and the entries
 * presented by `presenterFor` (with their companions, images, series and main rates, read for those only).
 */
export async function presentedPageBody(
  presenterFor: PresenterFor,
  read: UserRead,
  page: Pick<PresentedPageResult<Entry>, 'items' | 'json'>,
  settings: ListState['settings'],
): Promise<string | Buffer> {
  if (page.json) return page.json;
  const { items } = page;
  const entries = items.filter((item): item is Entry => typeof item !== 'string');
  if (!entries.length) return `[${items.join(',')}]`;
  const present = await presenterFor(read, entries, settings);
  return `[${items.map((item) => (typeof item === 'string' ? item : JSON.stringify(present(item)))).join(',')}]`;
}
