import { EXPORT_STATUSES, EXPORT_TYPES, ExportStatus, ExportType } from '@pfs/contracts';
import { notFound } from '@pfs/errors';
import { hasScope, parseEnumParam, updateFromRequest } from '@pfs/resource-api';
import { exportsTable } from '@pfs/resource-store';
import { AppError } from '@pfs/errors';
import type { Request } from 'express';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler, DeclaredOperation } from '../../http/api-operation';
import { parseExportRequest } from './export-request';
import { presentExport } from './exports.presenter';
import { exportsListQuery } from './exports.schema';

function readFilters(req: Request): { status?: ExportStatus; type?: ExportType } {
  const query = req.query as Record<string, unknown>;
  return {
    status: parseEnumParam(query, 'status', EXPORT_STATUSES),
    type: parseEnumParam(query, 'type', EXPORT_TYPES),
  };
}

/** Reading exports needs entries:r and budgets:r (the spec); requesting one writes to the exports area (entries:rw). */
const canRead = 'entries:r budgets:r';
const canWrite = 'entries:rw budgets:r';

export function exportsHandlers(deps: ApiDependencies) {
  const exportsRepo = deps.repos.exports;
  const api = deps.resourceApi;

  const list: ApiHandler = async (ctx, req, res) => {
    const params = api.parseList(req, { endpoint: 'exports' });
    const result = await exportsRepo.list(deps.store.read(ctx), params, readFilters(req));
    api.respond.sendList(req, res, { schema: 'exports', params, result, present: presentExport });
  };

  const get: ApiHandler = async (ctx, req, res) => {
    const record = await exportsRepo.findById(deps.store.read(ctx), String(req.params.id));
    if (!record) throw notFound('Export', String(req.params.id));
    api.respond.sendObject(req, res, 'exports', presentExport(record), record.modifiedAt);
  };

  const create: ApiHandler = async (ctx, req, res) => {
    const input = parseExportRequest(api.schemas, req.body);
    // Everything the user has leaves with user_data, the profile included.
    if (input.type === 'user_data' && !hasScope(ctx.scopes, 'user:r')) {
      throw new AppError('INSUFFICIENT_SCOPE', {
        description: 'A user_data export also needs the user:r scope.',
        headers: { 'WWW-Authenticate': 'Bearer realm="pfs", error="insufficient_scope", scope="user:r"' },
      });
    }
    const userId = ctx.userId;
    const created = await deps.store.change(ctx, (change) => exportsRepo.create(change, input));
    await deps.exportQueue.enqueue(userId, created.id, { trace: ctx.trace });
    api.respond.sendCreated(res, 'exports', '/exports', created.id, presentExport(created));
  };

  const markSeen: ApiHandler = async (ctx, req, res) => {
    const id = String(req.params.id);
    const updated = await updateFromRequest({
      req,
      schema: 'exports',
      schemas: api.schemas,
      mode: 'put',
      update: (decide) => deps.store.change(ctx, (change) => exportsRepo.update(change, id, decide)),
      toSnapshot: exportsTable.options.toSnapshot,
      present: presentExport,
      what: 'Export',
      id,
    });
    api.respond.sendObject(req, res, 'exports', presentExport(updated), updated.modifiedAt);
  };

  return { list, create, get, markSeen };
}

export type ExportsHandlers = ReturnType<typeof exportsHandlers>;

const resource = 'exports';

export const exportsOperations: Array<DeclaredOperation<ExportsHandlers>> = [
  {
    resource,
    rel: 'list',
    method: 'GET',
    href: '/exports',
    title: 'List exports',
    hrefSchema: exportsListQuery,
    target: 'list',
    scope: canRead,
    handler: 'list',
  },
  {
    resource,
    rel: 'create',
    method: 'POST',
    href: '/exports',
    title: 'Request an export (type user_data also needs user:r)',
    submission: 'create',
    target: 'object',
    scope: canWrite,
    handler: 'create',
  },
  {
    resource,
    rel: 'self',
    method: 'GET',
    href: '/exports/{id}',
    title: 'Get an export',
    target: 'object',
    scope: canRead,
    handler: 'get',
  },
  {
    resource,
    rel: 'update',
    method: 'PUT',
    href: '/exports/{id}',
    title: 'Mark an export seen',
    submission: 'update',
    target: 'object',
    scope: canWrite,
    handler: 'markSeen',
  },
];
