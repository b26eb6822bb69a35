import { notFound } from '@pfs/errors';
import {
  applyMergePatch,
  pageAsSent,
  readClientModified,
  sendStoredPage,
  StoredPages,
} from '@pfs/resource-api';
import { buildEntryFilters, type ListState, type Snapshot } from '@pfs/resource-store';
import type { Response } from 'express';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler, DeclaredOperation } from '../../http/api-operation';
import { idempotentPost, sendStoredResponse } from '../../http/idempotent-post';
import { withRates } from '../../http/rates-ready';
import { requestContext } from '../../http/request-context';
import { ledgerDepsOf } from '../../ledger-deps';
import { readExpand, sendExpanded } from '../repeats/expand-list';
import { deleteSeriesEntry } from '../repeats/repeat-delete.use-case';
import { updateSeriesEntry } from '../repeats/repeat-edit.use-case';
import { readRepeatFilter } from '../repeats/repeat-list-filter';
import { readSeriesEdit, readSeriesScope } from '../repeats/repeat-query';
import { repeatRuleOf } from '../repeats/repeat-body';
import { createRepeatingEntry } from '../repeats/repeat-series.use-case';
import { createEntries } from './create-entries.use-case';
import { createPlainEntries } from './create-plain-entries.use-case';
import { PlainEntryQueue } from './plain-entry-queue';
import { KnownReferences } from './known-references';
import { type EntryCreation, isPlainCreation, readEntryCreation } from './entry-creation';
import { presentEntry } from './entries.presenter';
import type { EntryBody } from './entry-body.schema';
import { entryListQuery } from './entry-queries.schema';
import { isUnfiltered, readEntryFilters } from '../../http/entry-filters';
import { entryPresenterFor } from './entry-presenter-for';
import { presentedPageBody } from './presented-page-body';
import { canonicalEntryState, readTransferIntent } from './entry-state';
import { manageEntries } from './manage-entries.use-case';
import { manageRequestReader, manageSubmission } from './manage-entries.schema';

/**
 * `/entries` and `/entries/{id}` (entries, transfers, the repeat options of a write). The reports
 * (`/entries/sums`, `/entries/timeline`) and `/entries/locations` are their own modules, mounted before this
 * one so that `/entries/{id}` does not take their paths.
 */
export function entriesHandlers(deps: ApiDependencies) {
  const api = deps.resourceApi;
  const ledger = ledgerDepsOf(deps);
  const idempotent = idempotentPost(deps);
  const readManage = manageRequestReader(api.schemas);
  const entriesTable = deps.repos.entries.table;
  const presenterFor = entryPresenterFor(deps);
  const storedPages = new StoredPages();
  const plainEntries = new PlainEntryQueue(deps.store);
  const knownReferences = new KnownReferences();

  const list: ApiHandler = async (ctx, req, res) => {
    const userId = ctx.userId;
    const read = deps.store.read(ctx);
    const params = api.parseList(req, { endpoint: 'entries' });
    const filters = readEntryFilters(req);
    const seriesFilter = readRepeatFilter(req);
    if (readExpand(req, filters)) {
      await sendExpanded({ req, res, deps, presenterFor }, params, filters, seriesFilter);
      return;
    }
    // The unchanged-page fast path: the same request at the same data version gets the bytes sent before. The
    // version also carries the rate book's load time (presented amounts convert with it). The same read gives
    // the currency settings a page that must be presented uses (one round trip less on a miss). A request
    // with no page stored under its key cannot be a hit: its state is read in the page's own statement instead
    // (one round trip, not two).
    const storedKey = StoredPages.keyOf(req, String(requestContext(req).format));
    const versionOf = (state: ListState) => `${state.version}:${deps.rates.lastLoaded?.getTime() ?? 0}`;
    const knownState = storedPages.has(storedKey) ? await deps.listStates.listState(userId) : undefined;
    const stored = knownState && storedPages.get(storedKey, versionOf(knownState));
    if (stored) {
      sendStoredPage(api.respond, req, res, 'entries', stored);
      return;
    }
    params.withListState = !knownState;
    // Stored lines only for entries in the main currency the other entries are presented with (read above).
    params.presentedMain = knownState?.settings.main;
    if (
      isUnfiltered(filters) &&
      !seriesFilter.length &&
      params.sinceSeq === undefined &&
      !params.includeDeleted
    ) {
      // Every live entry of the user: the per-account counts kept with each write give the total exactly, read
      // in the page's own statement.
      params.totalSql = ledger.accounts.liveEntriesTotalSql;
    }
    // Postgres keeps the page's entries as their final JSON where it can (entry-presented-line.ts): those are
    // joined into the body as they come; only the others are presented here.
    const result = await entriesTable.listPresented(read, params, [
      ...buildEntryFilters(filters),
      ...seriesFilter,
    ]);
    const listState = knownState ?? result.listState!;
    const version = versionOf(listState);
    const prepared = api.respond.sendListText(req, res, {
      schema: 'entries',
      params,
      result,
      body: await presentedPageBody(presenterFor, read, result, listState.settings),
      last: result.last,
      newest: result.newest,
    });
    storedPages.set(storedKey, pageAsSent(res, version, prepared));
  };

  const manage: ApiHandler = async (_ctx, req, res) => {
    const request = readManage(req.body);
    await idempotent(req, res, async (change) => {
      await manageEntries(ledger, change, request);
      return { status: 204, headers: {} };
    });
  };

  const get: ApiHandler = async (ctx, req, res) => {
    const read = deps.store.read(ctx);
    const entry = await entriesTable.findById(read, String(req.params.id));
    if (!entry) throw notFound('Entry', String(req.params.id));
    const present = await presenterFor(read, [entry]);
    api.respond.sendObject(req, res, 'entries', present(entry), entry.modifiedAt);
  };

  const create: ApiHandler = async (ctx, req, res) => {
    // Without an Idempotency-Key, plain entries (no transfer, no series) are checked before any change and
    // written in one round trip (createPlainEntries). With a key, the body is read inside the change, after
    // the key's claim: a reused key answers 422 whatever its new body, as the idempotency tests prove.
    let creation: EntryCreation | undefined;
    if (req.get('idempotency-key') === undefined) {
      creation = await readEntryCreation(api.schemas, req.body);
      if (isPlainCreation(creation)) {
        const written = await createPlainEntries(ledger, ctx, creation.drafts, {
          fieldsByIndex: creation.isBatch,
          queue: plainEntries,
          known: knownReferences,
        });
        if (written) {
          const present = await presenterFor(deps.store.read(ctx), written.entries, written.settings);
          return sendStoredResponse(res, createdAnswer(res, creation.isBatch, written.entries.map(present)));
        }
      }
    }
    await idempotent(req, res, async (change) => {
      const { isBatch, drafts, repeat } = creation ?? (await readEntryCreation(api.schemas, req.body));
      const created = repeat
        ? await createRepeatingEntry(ledger, change, drafts[0], repeatRuleOf(repeat))
        : await createEntries(ledger, change, drafts, { fieldsByIndex: isBatch });
      // Presented from the change: its rows (a transfer's companion, the series) are not committed yet.
      const present = await presenterFor(change, created);
      return createdAnswer(res, isBatch, created.map(present));
    });
  };

  /** A batch answers every created entry, in the order sent; Location names the first. */
  const createdAnswer = (res: Response, isBatch: boolean, presented: Array<Record<string, unknown>>) => {
    const answer = api.respond.created(res, 'entries', '/entries', String(presented[0].id), presented[0]);
    return isBatch ? { ...answer, body: presented } : answer;
  };

  const update =
    (mode: 'put' | 'patch'): ApiHandler =>
    async (ctx, req, res) => {
      const clientModified = readClientModified(req.body);
      const { modified: _ignored, ...body } = api.schemas.normalizeUpdate('entries', req.body);
      const intended = (edited: Snapshot): Snapshot => {
        if (mode === 'put') return canonicalEntryState(body);
        const patched = applyMergePatch(edited, { ...(req.body as object), modified: undefined });
        const { modified: _m, ...state } = api.schemas.normalizeUpdate('entries', patched);
        return canonicalEntryState(state);
      };
      const updated = await updateSeriesEntry(
        ledger,
        ctx,
        {
          id: String(req.params.id),
          clientModified,
          intended,
          transfer: readTransferIntent(mode, req.body, body, api.schemas),
          parseState: (state) => api.schemas.parseStoredState<EntryBody>('entries', state),
          presentCurrent: (entry) => presentEntry(entry),
        },
        readSeriesEdit(req, mode, api.schemas),
      );
      const present = await presenterFor(deps.store.read(ctx), [updated]);
      api.respond.sendObject(req, res, 'entries', present(updated), updated.modifiedAt);
    };

  const remove: ApiHandler = async (ctx, req, res) => {
    await deleteSeriesEntry(ledger, ctx, String(req.params.id), readSeriesScope(req, 'delete'));
    api.respond.sendNoContent(res);
  };

  // Every entries operation presents amounts converted with the rate table: each waits for it.
  const rated = (handler: ApiHandler) => withRates(deps.rates, handler);
  return {
    list: rated(list),
    create: rated(create),
    get: rated(get),
    replace: rated(update('put')),
    patch: rated(update('patch')),
    remove: rated(remove),
    manage: rated(manage),
  };
}

export type EntriesHandlers = ReturnType<typeof entriesHandlers>;

const resource = 'entries';

export const entriesOperations: Array<DeclaredOperation<EntriesHandlers>> = [
  {
    resource,
    rel: 'list',
    href: '/entries',
    method: 'GET',
    title: 'List entries',
    hrefSchema: entryListQuery,
    target: 'list',
    scope: 'entries:r',
    handler: 'list',
  },
  {
    resource,
    rel: 'create',
    href: '/entries',
    method: 'POST',
    title: 'Create an entry, or many (a JSON array; all or nothing)',
    submission: 'create',
    // One entry answers the entry; a batch (an array) answers the created entries in order.
    target: 'object-or-list',
    scope: 'entries:rw',
    handler: 'create',
  },
  {
    resource,
    rel: 'self',
    href: '/entries/{id}',
    method: 'GET',
    title: 'Get an entry',
    target: 'object',
    scope: 'entries:r',
    handler: 'get',
  },
  {
    resource,
    rel: 'update',
    href: '/entries/{id}',
    method: 'PUT',
    title: 'Replace an entry',
    submission: 'update',
    target: 'object',
    scope: 'entries:rw',
    handler: 'replace',
  },
  {
    resource,
    rel: 'patch',
    href: '/entries/{id}',
    method: 'PATCH',
    title: 'Change some fields (JSON merge patch)',
    submission: 'patch',
    target: 'object',
    scope: 'entries:rw',
    handler: 'patch',
  },
  {
    resource,
    rel: 'delete',
    href: '/entries/{id}',
    method: 'DELETE',
    title: 'Delete an entry (and its transfer companion)',
    scope: 'entries:rw',
    handler: 'remove',
  },
  {
    resource,
    rel: 'manage',
    href: '/entries/manage',
    method: 'POST',
    title: 'Set or add/remove tags, account or category on every entry matching `with`',
    submission: manageSubmission,
    scope: 'entries:rw',
    handler: 'manage',
  },
];
