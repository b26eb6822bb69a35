import { IMPORT_STATUSES } from '@pfs/contracts';
import { notFound } from '@pfs/errors';
import { requestLogger } from '@pfs/http';
import { negotiateMediaType, parseEnumParam } from '@pfs/resource-api';
import { randomBytes } from 'node:crypto';
import type { ApiDependencies } from '../../dependencies';
import type { ApiHandler, DeclaredOperation } from '../../http/api-operation';
import { createImport, parseImportRequest } from './create-import.use-case';
import { receiveImportUpload } from './import-upload';
import { presentImport } from './imports.presenter';
import { importRequestProperties, importsListQuery } from './imports.schema';

/** Imports write entries, categories and tags (entries:rw); reading them needs entries:r. */
export function importsHandlers(deps: ApiDependencies) {
  const imports = deps.repos.imports;
  const api = deps.resourceApi;

  const list: ApiHandler = async (ctx, req, res) => {
    const params = api.parseList(req, { endpoint: 'imports' });
    const status = parseEnumParam(req.query as Record<string, unknown>, 'status', IMPORT_STATUSES);
    const result = await imports.list(deps.store.read(ctx), params, { status });
    api.respond.sendList(req, res, { schema: 'imports', params, result, present: presentImport });
  };

  const get: ApiHandler = async (ctx, req, res) => {
    const record = await imports.findById(deps.store.read(ctx), String(req.params.id));
    if (!record) throw notFound('Import', String(req.params.id));
    api.respond.sendObject(req, res, 'imports', presentImport(record), record.modifiedAt);
  };

  const create: ApiHandler = async (ctx, req, res) => {
    // A fresh folder per upload: written before the import exists, removed if it never does.
    const key = `imports/${ctx.userId}/${randomBytes(12).toString('hex')}/statement`;
    const upload = await receiveImportUpload(req, deps.storage, key, deps.config.IMPORT_MAX_BYTES);
    let request;
    try {
      request = parseImportRequest(api.schemas, upload.fields);
    } catch (error) {
      await deps.storage.delete(key).catch(() => undefined);
      throw error;
    }
    const created = await createImport(
      {
        store: deps.store,
        accounts: deps.repos.accounts,
        imports,
        importQueue: deps.importQueue,
        storage: deps.storage,
        logger: requestLogger(deps.logger, req),
      },
      ctx,
      request,
      upload,
    );
    api.respond.sendCreated(res, 'imports', '/imports', created.id, presentImport(created));
  };

  return { list, get, create };
}

export type ImportsHandlers = ReturnType<typeof importsHandlers>;

const resource = 'imports';

export const importsOperations: Array<DeclaredOperation<ImportsHandlers>> = [
  {
    resource,
    rel: 'list',
    method: 'GET',
    href: '/imports',
    title: 'List imports',
    hrefSchema: importsListQuery,
    target: 'list',
    scope: 'entries:r',
    handler: 'list',
  },
  {
    resource,
    rel: 'create',
    method: 'POST',
    href: '/imports',
    title:
      'Upload a statement (CSV, OFX/QFX, QIF, CAMT.053, PFS or Toshl CSV export) as multipart/form-data: a file part named file and the fields below; answers 201 with the import, which the worker then parses and writes',
    submission: {
      type: 'object',
      required: ['file', 'account'],
      properties: { file: { type: 'string', format: 'binary' }, ...importRequestProperties },
    },
    submissionMediaTypes: ['multipart/form-data'],
    target: 'object',
    scope: 'entries:rw',
    files: true,
    before: [negotiateMediaType],
    handler: 'create',
  },
  {
    resource,
    rel: 'self',
    method: 'GET',
    href: '/imports/{id}',
    title: 'Get an import: its status, progress (rows_total, rows_done), error or result',
    target: 'object',
    scope: 'entries:r',
    handler: 'get',
  },
];
