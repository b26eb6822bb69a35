import { inputError } from '@pfs/errors';
import type { JsonSchema } from './resource-schema';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Placeholders existing clients send in whole fetched objects (reference 0b) are normalised, never stored:
 * `"false"`/`"true"` strings for booleans become booleans; `""` for a string that cannot be empty, `0` for
 * a number that must be positive, and `null` mean "unset". Returns undefined for "unset".
 */
function normalizeValue(value: unknown, schema: JsonSchema): unknown {
  if (value === null) return undefined;
  if (schema.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  if (
    schema.type === 'string' &&
    value === '' &&
    (Number(schema.minLength ?? 0) > 0 || schema.enum || schema.pattern)
  ) {
    return undefined;
  }
  if (
    (schema.type === 'number' || schema.type === 'integer') &&
    value === 0 &&
    schema.exclusiveMinimum === 0
  ) {
    return undefined;
  }
  if (schema.type === 'object' && isPlainObject(value) && schema.properties) {
    return pick(value, schema.properties as Record<string, JsonSchema>);
  }
  return value;
}

function pick(
  body: Record<string, unknown>,
  properties: Record<string, JsonSchema>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties)) {
    if (!(name in body)) continue;
    const value = name === 'extra' ? body[name] : normalizeValue(body[name], schema);
    if (value !== undefined && value !== null) out[name] = value;
  }
  return out;
}

/**
 * Keeps only the writable properties (read-only ones such as id, created, deleted, counts are ignored,
 * not errors) and normalises placeholders. A body that is not a JSON object is a 400.
 */
export function normalizeBody(
  body: unknown,
  properties: Record<string, JsonSchema>,
): Record<string, unknown> {
  if (!isPlainObject(body)) throw inputError([{ field: '(body)', error: 'must be a JSON object' }]);
  return pick(body, properties);
}
