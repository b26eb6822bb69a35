import { isResourceId } from '@pfs/contracts';
import { inputError, notFound } from '@pfs/errors';
import {
  applyMergePatch,
  parseCreateBody,
  parseEnumParam,
  parseListParam,
  readClientModified,
  requireScope,
  userIdOf,
} from '@pfs/resource-api';
import { ACCOUNT_STATUSES, accountsTable, type SqlFilter } from '@pfs/resource-store';
import { type Request, type Response, Router } from 'express';
import type { ApiDependencies } from '../../dependencies';
import { idempotentPost } from '../../http/idempotent-post';
import { ledgerDepsOf } from '../../ledger-deps';
import { mergeAccounts, moveAccount, reorderAccounts } from './account-order.use-case';
import { createAccount, deleteAccount, updateAccount } from './account-use-cases';
import { presentAccount } from './accounts.presenter';
import type { AccountBody } from './accounts.schema';
import { ratesReady } from '../../http/rates-ready';

function readFilters(req: Request): SqlFilter[] {
  const query = req.query as Record<string, unknown>;
  const filters: SqlFilter[] = [];
  const status = parseEnumParam(query, 'status', ACCOUNT_STATUSES);
  if (status) filters.push((param) => `t.status = ${param(status)}`);
  const ids = parseListParam(query, 'ids', isResourceId);
  if (ids) filters.push((param) => `t.id = ANY(${param(ids)}::bigint[])`);
  return filters;
}

const readIdList = (value: unknown, field: string): string[] => {
  if (!Array.isArray(value) || !value.length || value.length > 500 || !value.every(isResourceId)) {
    throw inputError([{ field, error: 'must be a non-empty array of account ids' }]);
  }
  return value;
};

const NO_CONTENT = { status: 204, headers: {} };

export function accountsRoutes(deps: ApiDependencies): Router {
  const router = Router();
  const api = deps.resourceApi;
  const ledger = ledgerDepsOf(deps);
  const idempotent = idempotentPost(deps.dataSource);

  router.get('/accounts', requireScope('accounts:r'), async (req, res) => {
    const params = api.parseList(req, { endpoint: 'accounts' });
    const result = await accountsTable.list(deps.dataSource, userIdOf(req), params, readFilters(req));
    api.respond.sendList(req, res, { schema: 'accounts', params, result, present: presentAccount });
  });

  router.post('/accounts/reorder', requireScope('accounts:rw'), async (req, res) => {
    const order = readIdList((req.body as { order?: unknown })?.order, 'order');
    await idempotent(req, res, async () => {
      await reorderAccounts(ledger, userIdOf(req), order);
      return NO_CONTENT;
    });
  });

  router.post('/accounts/merge', requireScope('accounts:rw'), ratesReady(deps.rates), async (req, res) => {
    const body = req.body as { accounts?: unknown; account?: unknown };
    const sources = readIdList(body?.accounts, 'accounts');
    const target = body?.account;
    if (!isResourceId(target)) throw inputError([{ field: 'account', error: 'must be an account id' }]);
    await idempotent(req, res, async () => {
      await mergeAccounts(ledger, userIdOf(req), sources, target);
      return NO_CONTENT;
    });
  });

  router.post('/accounts/:id/move', requireScope('accounts:rw'), async (req, res) => {
    const position = (req.body as { position?: unknown })?.position;
    if (!Number.isInteger(position) || (position as number) < 0) {
      throw inputError([{ field: 'position', error: 'must be an integer of at least 0' }]);
    }
    await idempotent(req, res, async () => {
      await moveAccount(ledger, userIdOf(req), String(req.params.id), position as number);
      return NO_CONTENT;
    });
  });

  router.get('/accounts/:id', requireScope('accounts:r'), async (req, res) => {
    const account = await accountsTable.findById(deps.dataSource, userIdOf(req), String(req.params.id));
    if (!account) throw notFound('Account', String(req.params.id));
    api.respond.sendObject(req, res, 'accounts', presentAccount(account), account.modifiedAt);
  });

  router.post('/accounts', requireScope('accounts:rw'), async (req, res) => {
    await idempotent(req, res, async () => {
      const body = await parseCreateBody<AccountBody>(api.schemas, 'accounts', req.body);
      const created = await createAccount(ledger, userIdOf(req), body);
      return api.respond.created(res, 'accounts', '/accounts', created.id, presentAccount(created));
    });
  });

  const update = (mode: 'put' | 'patch') => async (req: Request, res: Response) => {
    const clientModified = readClientModified(req.body);
    const { modified: _ignored, ...body } = api.schemas.normalizeUpdate('accounts', req.body);
    const updated = await updateAccount(ledger, userIdOf(req), {
      id: String(req.params.id),
      clientModified,
      intended: (edited) => {
        if (mode === 'put') return body;
        const patched = applyMergePatch(edited, { ...(req.body as object), modified: undefined });
        const { modified: _m, ...state } = api.schemas.normalizeUpdate('accounts', patched);
        return state;
      },
      parseState: (state) => api.schemas.parseStoredState<AccountBody>('accounts', state),
      presentCurrent: presentAccount,
    });
    api.respond.sendObject(req, res, 'accounts', presentAccount(updated), updated.modifiedAt);
  };
  router.put('/accounts/:id', requireScope('accounts:rw'), update('put'));
  router.patch('/accounts/:id', requireScope('accounts:rw'), update('patch'));

  router.delete('/accounts/:id', requireScope('accounts:rw'), async (req, res) => {
    await deleteAccount(ledger, userIdOf(req), String(req.params.id));
    api.respond.sendNoContent(res);
  });

  return router;
}
