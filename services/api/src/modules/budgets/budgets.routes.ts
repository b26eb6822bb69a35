import { isResourceId } from '@pfs/contracts';
import { inputError, notFound } from '@pfs/errors';
import {
  applyMergePatch,
  parseBooleanParam,
  parseCreateBody,
  parseListParam,
  parsePageParams,
  parseSearchParam,
  readClientModified,
  requireScope,
  userIdOf,
} from '@pfs/resource-api';
import { type Budget, budgetsTable, type BudgetListFilters, type Snapshot } from '@pfs/resource-store';
import { type Request, type Response, Router } from 'express';
import type { ApiDependencies } from '../../dependencies';
import { ratesReady } from '../../http/rates-ready';
import { DATE_RULE, isValidDate } from '../../http/date-rule';
import { idempotentPost } from '../../http/idempotent-post';
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
import type { BudgetBody } from './budgets.schema';

const NO_CONTENT = { status: 204, headers: {} };

function readDate(query: Record<string, unknown>, name: string, required: boolean): string | undefined {
  const value = query[name];
  if (value === undefined && !required) return undefined;
  if (value === undefined) throw inputError([{ field: name, error: 'is required' }]);
  if (!isValidDate(value)) throw inputError([{ field: name, error: DATE_RULE }]);
  return value as string;
}

function readRange(query: Record<string, unknown>, fromRequired: boolean) {
  const from = readDate(query, 'from', fromRequired);
  const to = readDate(query, 'to', true)!;
  if (from && to < from) throw inputError([{ field: 'to', error: 'must not be before from' }]);
  return { from, to };
}

/**
 * The list range. Half the clients in use list budgets with `to` only or with no dates (docs/budgets.md):
 * a missing date defaults to the other one, and with neither the range is today (UTC, as for one budget),
 * so each budget comes at the iteration holding that day.
 */
function readListRange(query: Record<string, unknown>): { from: string; to: string } {
  const given = { from: readDate(query, 'from', false), to: readDate(query, 'to', false) };
  const from = given.from ?? given.to ?? todayUtc();
  const to = given.to ?? from;
  if (to < from) throw inputError([{ field: 'to', error: 'must not be before from' }]);
  return { from, to };
}

function readListFilters(req: Request): BudgetListFilters {
  const query = req.query as Record<string, unknown>;
  const { from, to } = readListRange(query);
  return {
    from,
    to,
    categories: parseListParam(query, 'categories', isResourceId),
    tags: parseListParam(query, 'tags', isResourceId),
    accounts: parseListParam(query, 'accounts', isResourceId),
    search: parseSearchParam(query, 300),
    hasProblem: parseBooleanParam(query, 'has_problem'),
  };
}

export function budgetsRoutes(deps: ApiDependencies): Router {
  const router = Router();
  const api = deps.resourceApi;
  const budgets = budgetsDepsOf(deps);
  const idempotent = idempotentPost(deps.dataSource);

  const userOf = async (req: Request): Promise<BudgetUser> => {
    const user = await deps.users.findById(userIdOf(req));
    if (!user) throw notFound('User');
    return { id: user.id, startDay: user.startDay, currency: user.currency };
  };
  const presentCurrent = async (user: BudgetUser, budget: Budget) => {
    const [view] = await viewBudgets(budgets, user, [
      { budget, iteration: currentIteration(budget, user.startDay) },
    ]);
    return presentBudget(view);
  };

  router.get('/budgets', requireScope('budgets:r'), ratesReady(deps.rates), async (req, res) => {
    const filters = readListFilters(req);
    const oneIterationOnly = parseBooleanParam(req.query as Record<string, unknown>, 'one_iteration_only');
    const params = api.parseList(req, { endpoint: 'budgets' });
    const result = await listBudgetIterations(budgets, await userOf(req), {
      params,
      filters,
      oneIterationOnly: oneIterationOnly ?? false,
    });
    // ETag only, as for one budget: figures (planned, the current iteration, rates) change without a write.
    api.respond.sendList(req, res, {
      schema: 'budgets',
      params,
      result,
      present: (item) => item.body,
      lastModified: false,
    });
  });

  router.post('/budgets/reorder', requireScope('budgets:rw'), async (req, res) => {
    const order = (req.body as { order?: unknown })?.order;
    if (!Array.isArray(order) || !order.length || order.length > 500 || !order.every(isResourceId)) {
      throw inputError([{ field: 'order', error: 'must be a non-empty array of budget ids' }]);
    }
    await idempotent(req, res, async () => {
      await reorderBudgets(budgets, userIdOf(req), order);
      return NO_CONTENT;
    });
  });

  router.post('/budgets/:id/move', requireScope('budgets:rw'), async (req, res) => {
    const position = (req.body as { position?: unknown })?.position;
    if (!Number.isInteger(position) || (position as number) < 0) {
      throw inputError([{ field: 'position', error: 'must be an integer of at least 0' }]);
    }
    await idempotent(req, res, async () => {
      await moveBudget(budgets, userIdOf(req), String(req.params.id), position as number);
      return NO_CONTENT;
    });
  });

  router.get('/budgets/:id/history', requireScope('budgets:r'), ratesReady(deps.rates), async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const range = readRange(query, false);
    const { page, perPage } = parsePageParams(query);
    const user = await userOf(req);
    const budget = await budgetsTable.findById(deps.dataSource, user.id, String(req.params.id));
    if (!budget) throw notFound('Budget', String(req.params.id));
    const history = await budgetHistory(budgets, user, budget, { ...range, page, perPage });
    api.respond.sendOffsetPage(req, res, 'budgets', {
      page,
      perPage,
      total: history.total,
      body: history.items,
    });
  });

  router.get('/budgets/:id', requireScope('budgets:r'), ratesReady(deps.rates), async (req, res) => {
    const user = await userOf(req);
    const budget = await budgetsTable.findById(deps.dataSource, user.id, String(req.params.id));
    if (!budget) throw notFound('Budget', String(req.params.id));
    // ETag only: amount and planned change with entries, so the budget's own modified is no Last-Modified.
    api.respond.sendObject(req, res, 'budgets', await presentCurrent(user, budget));
  });

  router.post('/budgets', requireScope('budgets:rw'), async (req, res) => {
    await idempotent(req, res, async () => {
      const body = await parseCreateBody<BudgetBody>(api.schemas, 'budgets', withRecurrence(req.body));
      const created = await createBudget(budgets, userIdOf(req), body);
      return api.respond.created(
        res,
        'budgets',
        '/budgets',
        created.id,
        await presentCurrent(await userOf(req), created),
      );
    });
  });

  const update = (mode: 'put' | 'patch') => async (req: Request, res: Response) => {
    const scopeOfUpdate = (req.query as Record<string, unknown>).update ?? 'all';
    if (scopeOfUpdate !== 'all' && scopeOfUpdate !== 'tail') {
      throw inputError([
        {
          field: 'update',
          error: 'must be all or tail: budgets keep no single-iteration changes (docs/budgets.md)',
        },
      ]);
    }
    const user = await userOf(req);
    const clientModified = readClientModified(req.body);
    // The 409 body needs figures, which need a query: presented up front for the rare conflict.
    const current = await budgetsTable.findById(deps.dataSource, user.id, String(req.params.id));
    if (!current) throw notFound('Budget', String(req.params.id));
    const currentBody = await presentCurrent(user, current);
    const write = scopeOfUpdate === 'tail' ? updateBudgetTail : updateBudget;
    const updated = await write(budgets, user.id, {
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
  router.put('/budgets/:id', requireScope('budgets:rw'), ratesReady(deps.rates), update('put'));
  router.patch('/budgets/:id', requireScope('budgets:rw'), ratesReady(deps.rates), update('patch'));

  router.delete('/budgets/:id', requireScope('budgets:rw'), async (req, res) => {
    await deleteBudget(budgets, userIdOf(req), String(req.params.id));
    api.respond.sendNoContent(res);
  });

  return router;
}
