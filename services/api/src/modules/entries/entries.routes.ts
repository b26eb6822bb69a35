import { inputError, notFound } from '@pfs/errors';
import { type CustomRate, findUserCrossRate } from '@pfs/money';
import {
  applyMergePatch,
  pageAsSent,
  parseCreateBody,
  parsePageParams,
  readClientModified,
  requireScope,
  sendStoredPage,
  StoredPages,
  userIdOf,
} from '@pfs/resource-api';
import {
  buildEntryFilters,
  type Entry,
  entriesTable,
  ImageRepository,
  readListVersion,
  type Snapshot,
} from '@pfs/resource-store';
import { type Request, type Response, Router } from 'express';
import type { ApiDependencies } from '../../dependencies';
import { requestContext } from '../../http/request-context';
import { createEntries, MAX_BATCH } from './create-entries.use-case';
import { readEntryDraft } from './entry-draft';
import { isUnfiltered, readEntryFilters } from './entry-list-filters';
import { presentEntry } from './entries.presenter';
import { idempotentPost } from './idempotency';
import { ledgerDepsOf } from './ledger-deps-of';
import { manageEntries, readManageRequest } from './manage-entries.use-case';
import { SumRange, sumEntries } from './sum-entries.use-case';
import { presentSumsRow } from './sums.presenter';
import { canonicalEntryState, readTransferIntent } from './entry-state';
import { deleteSeriesEntry } from './repeat-delete.use-case';
import { updateSeriesEntry } from './repeat-edit.use-case';
import { readSeriesEdit, readSeriesScope } from './repeat-query';
import { readRepeatFilter } from './repeat-list-filter';
import { readExpand, sendExpanded } from './expand-list';
import { timelineRoute } from './timeline.routes';
import { locationsRoutes } from './locations.routes';
import { readRepeatRule } from './repeat-rule';
import { createRepeatingEntry } from './repeat-series.use-case';
import { seriesOf } from './repeat-reads';
import { ratesReady } from '../currencies/rate-book';
import { presentEntryImage } from '../images/images.presenter';

export function entriesRoutes(deps: ApiDependencies): Router {
  const router = Router();
  const api = deps.resourceApi;
  const ledger = ledgerDepsOf(deps);
  const idempotent = idempotentPost(deps.dataSource);
  const imageRepository = new ImageRepository(deps.dataSource);
  const storedPages = new StoredPages();
  router.use('/entries', ratesReady(deps.rates));

  /**
   * Presents entries with their transfer companions and main-currency rates (one user read per request,
   * concurrent with the companions' read; a list passes the main currency it read beside its page).
   */
  async function presenterFor(
    userId: string,
    entries: Entry[],
    known?: { main: string; customRates: CustomRate[] },
  ) {
    const [companions, settings, images, series] = await Promise.all([
      companionsOf(userId, entries),
      known ?? ledger.entries.findCurrencySettings(deps.dataSource, userId),
      imagesOf(userId, entries),
      seriesOf(deps.dataSource, userId, entries),
    ]);
    return (entry: Entry) =>
      presentEntry(
        entry,
        companions.get(entry.transactionId ?? ''),
        findUserCrossRate(deps.rates, settings.customRates, entry.currency, settings.main, entry.date),
        entry.imageIds.flatMap((id) => (images.has(id) ? [images.get(id)!] : [])),
        series.get(entry.id),
      );
  }

  /** The live images of a page of entries, presented, in one query (none when no entry has images). */
  async function imagesOf(userId: string, entries: Entry[]): Promise<Map<string, Record<string, unknown>>> {
    const ids = entries.flatMap((entry) => entry.imageIds);
    if (!ids.length) return new Map();
    const found = await imageRepository.findLiveByIds(userId, ids);
    return new Map(found.map((image) => [image.id, presentEntryImage(image, deps.config.BASE_URL)]));
  }

  /** Each transfer's companion, for presenting `transaction` with its account and amount. */
  async function companionsOf(userId: string, entries: Entry[]): Promise<Map<string, Entry>> {
    const ids = entries.flatMap((entry) => (entry.transactionId ? [entry.transactionId] : []));
    if (!ids.length) return new Map();
    const found = await entriesTable.findByIds(deps.dataSource, userId, ids);
    return new Map(found.map((entry) => [entry.id, entry]));
  }

  router.get('/entries', requireScope('entries:r'), async (req, res) => {
    const userId = userIdOf(req);
    const params = api.parseList(req, { endpoint: 'entries' });
    const filters = readEntryFilters(req);
    const seriesFilter = readRepeatFilter(req);
    if (readExpand(req, filters)) {
      await sendExpanded({ req, res, deps, presenterFor }, params, filters, seriesFilter);
      return;
    }
    // The unchanged-page fast path: the same request at the same data version gets the bytes sent before. The
    // version also carries the rate book's load time (presented amounts convert with it).
    const storedKey = StoredPages.keyOf(req, String(requestContext(req).format));
    const version = `${await readListVersion(deps.dataSource, userId)}:${deps.rates.lastLoaded?.getTime() ?? 0}`;
    const stored = storedPages.get(storedKey, version);
    if (stored) {
      sendStoredPage(api.respond, req, res, 'entries', stored);
      return;
    }
    if (
      isUnfiltered(filters) &&
      !seriesFilter.length &&
      params.sinceSeq === undefined &&
      !params.includeDeleted
    ) {
      // Every live entry of the user: the per-account counts kept with each write give the total exactly.
      params.totalCache = {
        get: () => ledger.accounts.countLiveEntries(deps.dataSource, userId),
        set: async () => {},
      };
    }
    // The main currency is read beside the page, not after it: one round trip less per list.
    const [result, settings] = await Promise.all([
      entriesTable.list(deps.dataSource, userId, params, [...buildEntryFilters(filters), ...seriesFilter]),
      ledger.entries.findCurrencySettings(deps.dataSource, userId),
    ]);
    const prepared = api.respond.sendList(req, res, {
      schema: 'entries',
      params,
      result,
      present: await presenterFor(userId, result.items, settings),
    });
    storedPages.set(storedKey, pageAsSent(res, version, prepared));
  });

  router.get('/entries/sums', requireScope('entries:r'), async (req, res) => {
    const range = (req.query.range ?? 'day') as SumRange;
    if (!['day', 'week', 'month'].includes(range))
      throw inputError([{ field: 'range', error: 'must be one of day, week, month' }]);
    if (typeof req.query.currency !== 'string')
      throw inputError([{ field: 'currency', error: 'is required' }]);
    const { page, perPage } = parsePageParams(req.query as Record<string, unknown>);
    const userId = userIdOf(req);
    const { customRates } = await ledger.entries.findCurrencySettings(deps.dataSource, userId);
    const sums = await sumEntries(ledger, userId, {
      filters: readEntryFilters(req, { requireRange: true }),
      currency: req.query.currency,
      range,
      customRates,
    });
    const body = sums
      .slice(page * perPage, (page + 1) * perPage)
      .map((period) => ({ day: period.day, ...presentSumsRow(period) }));
    api.respond.sendOffsetPage(req, res, 'entries', { page, perPage, total: sums.length, body });
  });

  timelineRoute(router, deps, presenterFor);
  locationsRoutes(router, deps);

  router.post('/entries/manage', requireScope('entries:rw'), async (req, res) => {
    const request = readManageRequest(req.body);
    await idempotent(req, res, async () => {
      await manageEntries(ledger, userIdOf(req), request);
      return { status: 204, headers: {} };
    });
  });

  router.get('/entries/:id', requireScope('entries:r'), async (req, res) => {
    const userId = userIdOf(req);
    const entry = await entriesTable.findById(deps.dataSource, userId, String(req.params.id));
    if (!entry) throw notFound('Entry', String(req.params.id));
    const present = await presenterFor(userId, [entry]);
    api.respond.sendObject(req, res, 'entries', present(entry), entry.modifiedAt);
  });

  router.post('/entries', requireScope('entries:rw'), async (req, res) => {
    await idempotent(req, res, async () => {
      const isBatch = Array.isArray(req.body);
      const bodies: unknown[] = isBatch ? req.body : [req.body];
      if (!bodies.length || bodies.length > MAX_BATCH) {
        throw inputError([{ field: '(body)', error: `must hold 1–${MAX_BATCH} entries` }]);
      }
      const drafts = [];
      for (const [index, body] of bodies.entries()) {
        const prefix = isBatch ? `${index}.` : '';
        const state = await parseCreateBody(api.schemas, 'entries', body).catch((error) => {
          throw isBatch && error.fields
            ? inputError(
                error.fields.map((f: { field: string; error: string }) => ({
                  ...f,
                  field: prefix + f.field,
                })),
              )
            : error;
        });
        if (state.repeat !== undefined && isBatch)
          throw inputError([{ field: `${prefix}repeat`, error: 'a repeating entry must be posted alone' }]);
        drafts.push(readEntryDraft(state, prefix));
      }
      const rule = bodies[0] && (bodies[0] as { repeat?: unknown }).repeat;
      const created =
        !isBatch && rule !== undefined && rule !== null
          ? await createRepeatingEntry(ledger, userIdOf(req), drafts[0], readRepeatRule(rule))
          : await createEntries(ledger, userIdOf(req), drafts, isBatch);
      const present = await presenterFor(userIdOf(req), created);
      const answer = api.respond.created(res, 'entries', '/entries', created[0].id, present(created[0]));
      // A batch answers every created entry, in the order sent; Location names the first.
      return isBatch ? { ...answer, body: created.map(present) } : answer;
    });
  });

  const update = (mode: 'put' | 'patch') => async (req: Request, res: Response) => {
    const userId = userIdOf(req);
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
      userId,
      {
        id: String(req.params.id),
        clientModified,
        intended,
        transfer: readTransferIntent(mode, req.body, body),
        presentCurrent: (entry) => presentEntry(entry),
      },
      readSeriesEdit(req, mode),
    );
    const present = await presenterFor(userId, [updated]);
    api.respond.sendObject(req, res, 'entries', present(updated), updated.modifiedAt);
  };
  router.put('/entries/:id', requireScope('entries:rw'), update('put'));
  router.patch('/entries/:id', requireScope('entries:rw'), update('patch'));

  router.delete('/entries/:id', requireScope('entries:rw'), async (req, res) => {
    await deleteSeriesEntry(ledger, userIdOf(req), String(req.params.id), readSeriesScope(req, 'delete'));
    api.respond.sendNoContent(res);
  });

  return router;
}
