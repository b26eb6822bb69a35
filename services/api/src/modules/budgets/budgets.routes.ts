import { isResourceId } from '@pfs/contracts';
import { inputError, notFound } from '@pfs/errors';
import {
  applyMergePatch,
  parseBooleanParam,
  parseCreateBody,
  parsePageParams,
  readClientModified,
} from '@pfs/resource-api';
import type { Actor, Budget, Snapshot, UserRead } from '@pfs/resource-store';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler } from '../../http/api-operation';
import { withRates } from '../../http/rates-ready';
import { idempotentPost } from '../../http/idempotent-post';
import { UnchangedAnswers } from '../../http/unchanged-answers';
import { budgetHistory } from './budget-history.use-case';
import { withRecurrence } from './budget-legacy-shape';
import { listBudgetIterations } from './budget-list.use-case';
import { updateBudgetTail } from './budget-tail.use-case';
import { type BudgetUser, currentIteration, todayUtc, viewBudgets } from './budget-views.use-case';
import {
  createBudget,
  deleteBudget,
  moveBudget,
  reorderBudgets,
  updateBudget,
} from './budget-writes.use-case';
import { budgetsDepsOf } from './budgets.deps';
import { presentBudget } from './budgets.presenter';
import { readListFilters, readRange } from './budget-query';
import type { BudgetBody } from './budgets.schema';

const NO_CONTENT = { status: 204, headers: {} };

export function budgetsHandlers(deps: ApiDependencies) {
  const api = deps.resourceApi;
  const budgets = budgetsDepsOf(deps);
  const idempotent = idempotentPost(deps);
  const budgetsTable = deps.repos.budgets.table;
  // A page of 200 budgets reads and presents 400 iterations (docs/budgets.md, Scale): kept until anything
  // it depends on changes.
  const unchangedPages = new UnchangedAnswers(deps, {
    schema: 'budgets',
    kind: 'list',
    budgetBytes: 16 * 2 ** 20,
    today: todayUtc,
  });

  const userOf = async (actor: Actor): Promise<BudgetUser> => {
    const user = await deps.repos.users.findById(actor.userId);
    if (!user) throw notFound('User');
    return { actor, id: user.id, startDay: user.startDay, currency: user.currency };
  };
  const presentCurrent = async (user: BudgetUser, budget: Budget, read?: UserRead) => {
    const [view] = await viewBudgets(
      budgets,
      user,
      [{ budget, iteration: currentIteration(budget, user.startDay) }],
      read,
    );
    return presentBudget(view);
  };

  const list: ApiHandler = async (ctx, req, res) => {
    const filters = readListFilters(req);
    const oneIterationOnly = parseBooleanParam(req.query as Record<string, unknown>, 'one_iteration_only');
    const params = api.parseList(req, { endpoint: 'budgets' });
    const stamp = await unchangedPages.sendIfUnchanged(req, res);
    if (!stamp) return;
    const result = await listBudgetIterations(budgets, await userOf(ctx), {
      params,
      filters,
      oneIterationOnly: oneIterationOnly ?? false,
    });
    // ETag only, as for one budget: figures (planned, the current iteration, rates) change without a write.
    const prepared = api.respond.sendList(req, res, {
      schema: 'budgets',
      params,
      result,
      present: (item) => item.body,
      lastModified: false,
    });
    unchangedPages.keep(stamp, res, prepared);
  };

  const reorder: ApiHandler = async (_ctx, req, res) => {
    const order = (req.body as { order?: unknown })?.order;
    if (!Array.isArray(order) || !order.length || order.length > 500 || !order.every(isResourceId)) {
      throw inputError([{ field: 'order', error: 'must be a non-empty array of budget ids' }]);
    }
    await idempotent(req, res, async (change) => {
      await reorderBudgets(budgets, change, order);
      return NO_CONTENT;
    });
  };

  const move: ApiHandler = async (_ctx, req, res) => {
    const position = (req.body as { position?: unknown })?.position;
    if (!Number.isInteger(position) || (position as number) < 0) {
      throw inputError([{ field: 'position', error: 'must be an integer of at least 0' }]);
    }
    await idempotent(req, res, async (change) => {
      await moveBudget(budgets, change, String(req.params.id), position as number);
      return NO_CONTENT;
    });
  };

  const history: ApiHandler = async (ctx, req, res) => {
    const query = req.query as Record<string, unknown>;
    const range = readRange(query, false);
    const { page, perPage } = parsePageParams(query);
    const user = await userOf(ctx);
    const budget = await budgetsTable.findById(deps.store.read(ctx), String(req.params.id));
    if (!budget) throw notFound('Budget', String(req.params.id));
    const history = await budgetHistory(budgets, user, budget, { ...range, page, perPage });
    api.respond.sendOffsetPage(req, res, 'budgets', {
      page,
      perPage,
      total: history.total,
      body: history.items,
    });
  };

  const get: ApiHandler = async (ctx, req, res) => {
    const user = await userOf(ctx);
    const budget = await budgetsTable.findById(deps.store.read(ctx), String(req.params.id));
    if (!budget) throw notFound('Budget', String(req.params.id));
    // ETag only: amount and planned change with entries, so the budget's own modified is no Last-Modified.
    api.respond.sendObject(req, res, 'budgets', await presentCurrent(user, budget));
  };

  const create: ApiHandler = async (ctx, req, res) => {
    const user = await userOf(ctx);
    await idempotent(req, res, async (change) => {
      const body = await parseCreateBody<BudgetBody>(api.schemas, 'budgets', withRecurrence(req.body));
      const created = await createBudget(budgets, change, body);
      return api.respond.created(
        res,
        'budgets',
        '/budgets',
        created.id,
        await presentCurrent(user, created, change),
      );
    });
  };

  const update =
    (mode: 'put' | 'patch'): ApiHandler =>
    async (ctx, req, res) => {
      const scopeOfUpdate = (req.query as Record<string, unknown>).update ?? 'all';
      if (scopeOfUpdate !== 'all' && scopeOfUpdate !== 'tail') {
        throw inputError([
          {
            field: 'update',
            error: 'must be all or tail: budgets keep no single-iteration changes (docs/budgets.md)',
          },
        ]);
      }
      const user = await userOf(ctx);
      const clientModified = readClientModified(req.body);
      // The 409 body needs figures, which need a query: presented up front for the rare conflict.
      const current = await budgetsTable.findById(deps.store.read(ctx), String(req.params.id));
      if (!current) throw notFound('Budget', String(req.params.id));
      const currentBody = await presentCurrent(user, current);
      const write = scopeOfUpdate === 'tail' ? updateBudgetTail : updateBudget;
      const updated = await write(budgets, ctx, {
        startDay: user.startDay,
        today: todayUtc(),
        id: current.id,
        clientModified,
        intended: (edited: Snapshot) => {
          // Legacy fields and an omitted recurrence apply to the recurrence the client edited.
          const sent = withRecurrence(req.body, edited.recurrence);
          if (mode === 'put') {
            const { modified: _ignored, ...body } = api.schemas.normalizeUpdate('budgets', sent);
            return body;
          }
          const patched = applyMergePatch(edited, { ...(sent as object), modified: undefined });
          const { modified: _m, ...state } = api.schemas.normalizeUpdate('budgets', patched);
          return state;
        },
        parseState: (state) => api.schemas.parseStoredState<BudgetBody>('budgets', state),
        presentCurrent: () => currentBody,
      });
      api.respond.sendObject(req, res, 'budgets', await presentCurrent(user, updated));
    };

  const remove: ApiHandler = async (ctx, req, res) => {
    await deleteBudget(budgets, ctx, String(req.params.id));
    api.respond.sendNoContent(res);
  };

  return {
    list: withRates(deps.rates, list),
    create,
    get: withRates(deps.rates, get),
    replace: withRates(deps.rates, update('put')),
    patch: withRates(deps.rates, update('patch')),
    remove,
    history: withRates(deps.rates, history),
    move,
    reorder,
  };
}
