import type { PageRequest, SqlFilter, UserRead } from '@pfs/resource-store';
import { entryPresenterFor } from '../../../src/modules/entries/entry-presenter-for';
import { presentedPageBody } from '../../../src/modules/entries/presented-page-body';
import type { ApiTestApp } from '../../support/api-test-app';

/** A page request of `perPage` 200 from the top, live entries only, with `extra` over it. */
export const page = (extra: Partial<PageRequest> = {}): PageRequest => ({
  perPage: 200,
  offset: 0,
  includeDeleted: false,
  ...extra,
});

/**
 * A page of the user's entries read both ways: the general presenter over `list` (`expected`), and
 * `listPresented`'s lines joined as `GET /entries` joins them (`body`), with the ids of the items Postgres wrote.
 */
export async function bothWays(
  api: ApiTestApp,
  reader: UserRead,
  request: PageRequest,
  filters: SqlFilter[] = [],
) {
  const table = api.deps.repos.entries.table;
  const presenterFor = entryPresenterFor(api.deps);
  const settings = (await api.deps.store.listState(reader.userId)).settings;
  const general = await table.list(reader, request, filters);
  const present = await presenterFor(reader, general.items, settings);
  const presented = await table.listPresented(reader, request, filters);
  return {
    general,
    presented,
    expected: JSON.stringify(general.items.map(present)),
    body: (await presentedPageBody(presenterFor, reader, presented, settings)).toString(),
    // A page that came as its JSON array's bytes: Postgres wrote every item.
    written: new Set(
      presented.json
        ? (JSON.parse(presented.json.toString()) as Array<{ id: string }>).map((item) => item.id)
        : presented.items.flatMap((item) =>
            typeof item === 'string' ? [JSON.parse(item).id as string] : [],
          ),
    ),
  };
}
