import { EXPORT_FORMATS, EXPORT_RESOURCES, EXPORT_TYPES, ExportFilters, isResourceId } from '@pfs/contracts';
import { inputError } from '@pfs/errors';
import type { NewExport } from '@pfs/resource-store';
import { z } from 'zod';

const idList = (what: string) =>
  z
    .array(z.string().refine(isResourceId, `must be ${what} ids (strings of digits)`))
    .max(500, 'must hold at most 500 ids');
const locationIds = z.array(z.string().min(1).max(100)).max(500, 'must hold at most 500 ids');

const resourceFilters = z
  .object({
    categories: idList('category').optional(),
    '!categories': idList('category').optional(),
    tags: idList('tag').optional(),
    '!tags': idList('tag').optional(),
  })
  .strict();

const filters = z
  .object({
    accounts: idList('account').optional(),
    '!accounts': idList('account').optional(),
    locations: locationIds.optional(),
    '!locations': locationIds.optional(),
    expenses: resourceFilters.optional(),
    incomes: resourceFilters.optional(),
  })
  .strict();

const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine(
    (value) =>
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
      new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    'must be a real calendar date',
  )
  .refine((value) => value >= '1900-01-01' && value <= '2999-12-31', 'must be from 1900-01-01 to 2999-12-31');

const unique = <T>(items: T[]) => new Set(items).size === items.length;

const body = z
  .object({
    type: z.enum(EXPORT_TYPES, {
      errorMap: () => ({ message: `must be one of ${EXPORT_TYPES.join(', ')}` }),
    }),
    resources: z
      .array(
        z.enum(EXPORT_RESOURCES, {
          errorMap: () => ({ message: `must be one of ${EXPORT_RESOURCES.join(', ')}` }),
        }),
      )
      .refine(unique, 'must not repeat a resource')
      .optional(),
    formats: z
      .array(
        z.enum(EXPORT_FORMATS, {
          errorMap: () => ({ message: `must be one of ${EXPORT_FORMATS.join(', ')}` }),
        }),
      )
      .refine(unique, 'must not repeat a format')
      .optional(),
    filters: filters.nullable().optional(),
    from: date.nullable().optional(),
    to: date.nullable().optional(),
  })
  .passthrough();

/**
 * Reads a POST /exports body: `type` required; for `export`, at least one resource and one format.
 * Read-only fields a client echoes back (id, status, data, …) are ignored; anything malformed is a 400
 * naming the field and the rule.
 */
export function parseExportRequest(input: unknown): NewExport {
  const parsed = body.safeParse(input ?? {});
  if (!parsed.success) {
    throw inputError(
      parsed.error.issues.flatMap((issue) =>
        issue.code === 'unrecognized_keys'
          ? issue.keys.map((key) => ({
              field: [...issue.path, key].join('.'),
              error: 'is not a known filter',
            }))
          : [{ field: issue.path.join('.') || 'body', error: issue.message }],
      ),
    );
  }
  const value = parsed.data;
  const problems: Array<{ field: string; error: string }> = [];
  if (value.type === 'export') {
    if (!value.resources?.length)
      problems.push({ field: 'resources', error: 'must list at least one resource' });
    if (!value.formats?.length) problems.push({ field: 'formats', error: 'must list at least one format' });
  }
  if (value.from && value.to && value.from > value.to)
    problems.push({ field: 'to', error: 'must not be before from' });
  if (problems.length) throw inputError(problems);
  const isExport = value.type === 'export';
  return {
    type: value.type,
    resources: isExport ? (value.resources ?? []) : [],
    formats: isExport ? (value.formats ?? []) : [],
    filters: isExport && value.filters ? (value.filters as ExportFilters) : null,
    from: value.from ?? null,
    to: value.to ?? null,
  };
}
