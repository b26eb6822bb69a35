import { EXPORT_STATUSES, EXPORT_TYPES, ExportStatus, ExportType } from '@pfs/contracts';
import { notFound } from '@pfs/errors';
import { hasScope, parseEnumParam, requireScopes, updateFromRequest, userIdOf } from '@pfs/resource-api';
import { ExportRepository, exportsTable } from '@pfs/resource-store';
import { AppError } from '@pfs/errors';
import { Request, Router } from 'express';
import type { ApiDependencies } from '../../dependencies';
import { requestContext } from '../../http/request-context';
import { parseExportRequest } from './export-request';
import { presentExport } from './exports.presenter';

function readFilters(req: Request): { status?: ExportStatus; type?: ExportType } {
  const query = req.query as Record<string, unknown>;
  return {
    status: parseEnumParam(query, 'status', EXPORT_STATUSES),
    type: parseEnumParam(query, 'type', EXPORT_TYPES),
  };
}

/** Reading exports needs entries:r and budgets:r (the spec); requesting one writes to the exports area (entries:rw). */
const canRead = requireScopes('entries:r', 'budgets:r');
const canWrite = requireScopes('entries:rw', 'budgets:r');

export function exportsRoutes(deps: ApiDependencies): Router {
  const router = Router();
  const exportsRepo = new ExportRepository(deps.dataSource);
  const api = deps.resourceApi;

  router.get('/exports', canRead, async (req, res) => {
    const params = api.parseList(req, { endpoint: 'exports' });
    const result = await exportsRepo.list(userIdOf(req), params, readFilters(req));
    api.respond.sendList(req, res, { schema: 'exports', params, result, present: presentExport });
  });

  router.get('/exports/:id', canRead, async (req, res) => {
    const record = await exportsRepo.findById(userIdOf(req), String(req.params.id));
    if (!record) throw notFound('Export', String(req.params.id));
    api.respond.sendObject(req, res, 'exports', presentExport(record), record.modifiedAt);
  });

  router.post('/exports', canWrite, async (req, res) => {
    const input = parseExportRequest(req.body);
    // Everything the user has leaves with user_data, the profile included.
    if (input.type === 'user_data' && !hasScope(requestContext(req).scopes, 'user:r')) {
      throw new AppError('INSUFFICIENT_SCOPE', {
        description: 'A user_data export also needs the user:r scope.',
        headers: { 'WWW-Authenticate': 'Bearer realm="pfs", error="insufficient_scope", scope="user:r"' },
      });
    }
    const userId = userIdOf(req);
    const created = await exportsRepo.create(userId, input);
    await deps.exportQueue.enqueue(userId, created.id);
    api.respond.sendCreated(res, 'exports', '/exports', created.id, presentExport(created));
  });

  router.put('/exports/:id', canWrite, async (req, res) => {
    const userId = userIdOf(req);
    const id = String(req.params.id);
    const updated = await updateFromRequest({
      req,
      schema: 'exports',
      schemas: api.schemas,
      mode: 'put',
      update: (decide) => exportsRepo.update(userId, id, decide),
      toSnapshot: exportsTable.options.toSnapshot,
      present: presentExport,
      what: 'Export',
      id,
    });
    api.respond.sendObject(req, res, 'exports', presentExport(updated), updated.modifiedAt);
  });

  return router;
}
