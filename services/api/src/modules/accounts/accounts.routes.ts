import { isResourceId } from '@pfs/contracts';
import { notFound } from '@pfs/errors';
import {
  applyMergePatch,
  parseCreateBody,
  parseEnumParam,
  parseListParam,
  readClientModified,
} from '@pfs/resource-api';
import { accountListFilters, ACCOUNT_STATUSES, type SqlFilter } from '@pfs/resource-store';
import type { Request } from 'express';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler, DeclaredOperation } from '../../http/api-operation';
import { idempotentPost } from '../../http/idempotent-post';
import { ledgerDepsOf } from '../../ledger-deps';
import { mergeAccounts, moveAccount, reorderAccounts } from './account-order.use-case';
import { createAccount, deleteAccount, updateAccount } from './account-use-cases';
import { presentAccount } from './accounts.presenter';
import {
  type AccountBody,
  type MergeBody,
  mergeSubmission,
  type MoveBody,
  moveSubmission,
  type ReorderBody,
  reorderSubmission,
} from './accounts.schema';
import { withRates } from '../../http/rates-ready';

function readFilters(req: Request): SqlFilter[] {
  const query = req.query as Record<string, unknown>;
  return accountListFilters({
    status: parseEnumParam(query, 'status', ACCOUNT_STATUSES),
    ids: parseListParam(query, 'ids', isResourceId),
  });
}

const ACCOUNT_IDS = 'must be a non-empty array of account ids';
/** What the published lists do not state: 1 to 500 ids. */
const idCountWithinBounds = (ids: unknown) => Array.isArray(ids) && ids.length >= 1 && ids.length <= 500;

const NO_CONTENT = { status: 204, headers: {} };

export function accountsHandlers(deps: ApiDependencies) {
  const api = deps.resourceApi;
  const ledger = ledgerDepsOf(deps);
  const idempotent = idempotentPost(deps);
  const accounts = deps.repos.accounts.table;
  const readMove = api.schemas.submissionReader<MoveBody>(moveSubmission, {
    position: 'must be an integer of at least 0',
  });
  const readReorder = api.schemas.submissionReader<ReorderBody>(
    reorderSubmission,
    { order: ACCOUNT_IDS },
    { order: idCountWithinBounds },
  );
  const readMerge = api.schemas.submissionReader<MergeBody>(
    mergeSubmission,
    { accounts: ACCOUNT_IDS, account: 'must be an account id' },
    { accounts: idCountWithinBounds },
  );

  const list: ApiHandler = async (ctx, req, res) => {
    const params = api.parseList(req, { endpoint: 'accounts' });
    const result = await accounts.list(deps.store.read(ctx), params, readFilters(req));
    api.respond.sendList(req, res, { schema: 'accounts', params, result, present: presentAccount });
  };

  const reorder: ApiHandler = async (_ctx, req, res) => {
    const { order } = readReorder(req.body);
    await idempotent(req, res, async (change) => {
      await reorderAccounts(ledger, change, order);
      return NO_CONTENT;
    });
  };

  const merge: ApiHandler = async (_ctx, req, res) => {
    const { accounts: sources, account: target } = readMerge(req.body);
    await idempotent(req, res, async (change) => {
      await mergeAccounts(ledger, change, sources, target);
      return NO_CONTENT;
    });
  };

  const move: ApiHandler = async (_ctx, req, res) => {
    const { position } = readMove(req.body);
    await idempotent(req, res, async (change) => {
      await moveAccount(ledger, change, String(req.params.id), position);
      return NO_CONTENT;
    });
  };

  const get: ApiHandler = async (ctx, req, res) => {
    const account = await accounts.findById(deps.store.read(ctx), String(req.params.id));
    if (!account) throw notFound('Account', String(req.params.id));
    api.respond.sendObject(req, res, 'accounts', presentAccount(account), account.modifiedAt);
  };

  const create: ApiHandler = async (_ctx, req, res) => {
    await idempotent(req, res, async (change) => {
      const body = await parseCreateBody<AccountBody>(api.schemas, 'accounts', req.body);
      const created = await createAccount(ledger, change, body);
      return api.respond.created(res, 'accounts', '/accounts', created.id, presentAccount(created));
    });
  };

  const update =
    (mode: 'put' | 'patch'): ApiHandler =>
    async (ctx, req, res) => {
      const clientModified = readClientModified(req.body);
      const { modified: _ignored, ...body } = api.schemas.normalizeUpdate('accounts', req.body);
      const updated = await updateAccount(ledger, ctx, {
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

  const remove: ApiHandler = async (ctx, req, res) => {
    await deleteAccount(ledger, ctx, String(req.params.id));
    api.respond.sendNoContent(res);
  };

  return {
    list,
    create,
    get,
    replace: update('put'),
    patch: update('patch'),
    remove,
    move,
    reorder,
    merge: withRates(deps.rates, merge),
  };
}

export type AccountsHandlers = ReturnType<typeof accountsHandlers>;

const resource = 'accounts';

export const accountsOperations: Array<DeclaredOperation<AccountsHandlers>> = [
  {
    resource,
    rel: 'list',
    href: '/accounts',
    method: 'GET',
    title: 'List accounts',
    target: 'list',
    scope: 'accounts:r',
    hrefSchema: {
      type: 'object',
      properties: {
        status: { type: 'string', enum: [...ACCOUNT_STATUSES] },
        ids: { type: 'string' },
        page: { type: 'integer' },
        per_page: { type: 'integer' },
        since: { type: 'string' },
        include_deleted: { type: 'boolean' },
      },
    },
    handler: 'list',
  },
  {
    resource,
    rel: 'create',
    href: '/accounts',
    method: 'POST',
    title: 'Create an account',
    submission: 'create',
    target: 'object',
    scope: 'accounts:rw',
    handler: 'create',
  },
  {
    resource,
    rel: 'self',
    href: '/accounts/{id}',
    method: 'GET',
    title: 'Get an account',
    target: 'object',
    scope: 'accounts:r',
    handler: 'get',
  },
  {
    resource,
    rel: 'update',
    href: '/accounts/{id}',
    method: 'PUT',
    title: 'Replace an account',
    submission: 'update',
    target: 'object',
    scope: 'accounts:rw',
    handler: 'replace',
  },
  {
    resource,
    rel: 'patch',
    href: '/accounts/{id}',
    method: 'PATCH',
    title: 'Change some fields (JSON merge patch)',
    submission: 'patch',
    target: 'object',
    scope: 'accounts:rw',
    handler: 'patch',
  },
  {
    resource,
    rel: 'delete',
    href: '/accounts/{id}',
    method: 'DELETE',
    title: 'Delete an account and its entries (not the last one)',
    scope: 'accounts:rw',
    handler: 'remove',
  },
  {
    resource,
    rel: 'move',
    href: '/accounts/{id}/move',
    method: 'POST',
    title: 'Move to a position',
    scope: 'accounts:rw',
    submission: moveSubmission,
    handler: 'move',
  },
  {
    resource,
    rel: 'reorder',
    href: '/accounts/reorder',
    method: 'POST',
    title: 'Set the order of accounts',
    scope: 'accounts:rw',
    submission: reorderSubmission,
    handler: 'reorder',
  },
  {
    resource,
    rel: 'merge',
    href: '/accounts/merge',
    method: 'POST',
    title: 'Move every entry of `accounts` into `account` and delete them',
    scope: 'accounts:rw',
    submission: mergeSubmission,
    handler: 'merge',
  },
];
