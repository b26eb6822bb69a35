import type { ExportFilters } from '@pfs/contracts';
import { inputError } from '@pfs/errors';
import type { SchemaRegistry } from '@pfs/resource-api';
import type { NewExport } from '@pfs/resource-store';
import type { ExportRequestBody } from './exports.schema';

/**
 * The cross-field rules of a POST /exports body, which the published schema cannot state per field: an
 * `export` lists at least one resource and one format; `from` is not after `to`.
 */
export function assertExportRequest(body: ExportRequestBody): void {
  const problems: Array<{ field: string; error: string }> = [];
  if (body.type === 'export') {
    if (!body.resources?.length)
      problems.push({ field: 'resources', error: 'must list at least one resource' });
    if (!body.formats?.length) problems.push({ field: 'formats', error: 'must list at least one format' });
  }
  if (body.from && body.to && body.from > body.to)
    problems.push({ field: 'to', error: 'must not be before from' });
  if (problems.length) throw inputError(problems);
}

/**
 * Reads a POST /exports body: validated by the published `exports` schema (read-only fields a client echoes
 * back, such as id, status or data, are ignored; anything malformed is a 400 naming the field and the rule),
 * then by `assertExportRequest`.
 */
export function parseExportRequest(schemas: SchemaRegistry, input: unknown): NewExport {
  const body = schemas.parseCreate<ExportRequestBody>('exports', input ?? {});
  assertExportRequest(body);
  const isExport = body.type === 'export';
  return {
    type: body.type,
    resources: isExport ? [...(body.resources ?? [])] : [],
    formats: isExport ? [...(body.formats ?? [])] : [],
    filters: isExport && body.filters ? (body.filters as ExportFilters) : null,
    from: body.from ?? null,
    to: body.to ?? null,
  };
}
