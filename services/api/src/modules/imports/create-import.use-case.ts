import { type ImportFormat, type ImportOptions } from '@pfs/contracts';
import { inputError } from '@pfs/errors';
import type { ImportJobQueue } from '@pfs/jobs';
import type { Logger, TraceContext } from '@pfs/logger';
import type { SchemaRegistry } from '@pfs/resource-api';
import type {
  AccountRepository,
  Actor,
  ActorStore,
  ImportRecord,
  ImportRepository,
} from '@pfs/resource-store';
import type { ObjectStorage } from '@pfs/storage';
import type { ReceivedUpload } from './import-upload';

export interface ImportRequest {
  account: string;
  format?: ImportFormat;
  dryRun: boolean;
  options: ImportOptions;
}

export interface CreateImportDeps {
  store: ActorStore;
  accounts: AccountRepository;
  imports: ImportRepository;
  importQueue: ImportJobQueue;
  storage: ObjectStorage;
  logger: Logger;
}

/** Form fields are text: `dry_run` reads as a boolean, `mapping` as JSON (or `mapping.date` style fields). */
function bodyOfFields(fields: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const mapping: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    const member = /^mapping(?:\.|\[)(\w+)\]?$/.exec(name);
    if (member) mapping[member[1]] = value;
    else if (name === 'dry_run') body.dry_run = ['true', '1', 'on'].includes(value.trim().toLowerCase());
    else if (name === 'mapping') body.mapping = parseMapping(value);
    else body[name] = value;
  }
  if (Object.keys(mapping).length) body.mapping = { ...(body.mapping as object), ...mapping };
  return body;
}

function parseMapping(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw inputError([{ field: 'mapping', error: 'must be a JSON object of column names' }]);
  }
}

/** The fields of POST /imports checked against the published schema (the one GET /schema/imports shows). */
export function parseImportRequest(schemas: SchemaRegistry, fields: Record<string, string>): ImportRequest {
  const body = schemas.parseCreate<{
    account: string;
    format?: 'auto' | ImportFormat;
    dry_run?: boolean;
    mapping?: ImportOptions['mapping'];
    date_format?: string;
    decimal_separator?: '.' | ',';
    delimiter?: string;
    encoding?: string;
    tag_separator?: string;
  }>('imports', bodyOfFields(fields));
  if (body.mapping && !body.mapping.date) {
    throw inputError([{ field: 'mapping.date', error: 'is required when a mapping is given' }]);
  }
  if (body.mapping && !body.mapping.amount && !body.mapping.debit && !body.mapping.credit) {
    throw inputError([{ field: 'mapping.amount', error: 'is required (or debit and/or credit)' }]);
  }
  return {
    account: body.account,
    format: body.format === 'auto' ? undefined : body.format,
    dryRun: body.dry_run === true,
    options: {
      mapping: body.mapping,
      dateFormat: body.date_format,
      decimalSeparator: body.decimal_separator,
      delimiter: body.delimiter,
      encoding: body.encoding,
      tagSeparator: body.tag_separator,
    },
  };
}

/**
 * POST /imports after the upload: records the import (status `uploaded`) for one of the user's accounts,
 * then queues its job. The stored file goes when the record does not commit. A queue that refuses the job
 * (Redis down) fails the request (503); the recorded import is then queued again by the worker's sweeper.
 */
export async function createImport(
  deps: CreateImportDeps,
  actor: Actor & { trace?: TraceContext },
  request: ImportRequest,
  upload: ReceivedUpload,
): Promise<ImportRecord> {
  const created = await deps.store.change(actor, async (change) => {
    change.onRollback(() =>
      deps.storage
        .delete(upload.storageKey)
        .catch((error: unknown) =>
          deps.logger.warn({ err: error, key: upload.storageKey }, 'could not remove a refused upload'),
        ),
    );
    const [account] = await deps.accounts.lockAccounts(change, [request.account]);
    if (!account) throw inputError([{ field: 'account', error: 'must be one of your accounts' }]);
    return deps.imports.create(change, {
      accountId: account.id,
      format: request.format ?? null,
      options: JSON.parse(JSON.stringify(request.options)) as ImportOptions,
      dryRun: request.dryRun,
      filename: upload.filename ?? null,
      filesize: upload.size,
      storageKey: upload.storageKey,
    });
  });
  await deps.importQueue.enqueue(actor.userId, created.id, { trace: actor.trace });
  return created;
}
