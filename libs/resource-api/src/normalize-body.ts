import { inputError } from '@pfs/errors';
import type { JsonSchema } from './resource-schema';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const patterns = new Map<string, RegExp>();
function matches(pattern: string, value: string): boolean {
  let compiled = patterns.get(pattern);
  if (!compiled) patterns.set(pattern, (compiled = new RegExp(pattern, 'u')));
  return compiled.test(value);
}

const typesOf = (schema: JsonSchema): unknown[] => (Array.isArray(schema.type) ? schema.type : [schema.type]);

/** Whether a string schema accepts `value` (enough of JSON Schema for the placeholders below). */
function stringAccepts(schema: JsonSchema, value: string): boolean {
  if (Number(schema.minLength ?? 0) > value.length) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false;
  if (typeof schema.pattern === 'string' && !matches(schema.pattern, value)) return false;
  // Every format the schemas use (date, date-time, email, uri) refuses an empty string or a bare 0.
  return schema.format === undefined;
}

/** Whether a number schema accepts 0. */
function zeroAccepted(schema: JsonSchema): boolean {
  if (schema.exclusiveMinimum !== undefined && Number(schema.exclusiveMinimum) >= 0) return false;
  if (schema.minimum !== undefined && Number(schema.minimum) > 0) return false;
  if (schema.exclusiveMaximum !== undefined && Number(schema.exclusiveMaximum) <= 0) return false;
  if (schema.maximum !== undefined && Number(schema.maximum) < 0) return false;
  return !(Array.isArray(schema.enum) && !schema.enum.includes(0));
}

/**
 * A zero-valued placeholder (`""`, `0`, `"0"`) that the field's schema refuses: whole fetched objects and
 * generated clients send these for "no value" (`"rate": 0`, `"start": ""`, `"parent": 0`), so they mean
 * unset. A placeholder the schema accepts (`"desc": ""`, `"order": 0`) is a real value and is kept.
 */
function isRefusedPlaceholder(value: unknown, schema: JsonSchema): boolean {
  if (value !== '' && value !== 0 && value !== '0') return false;
  const types = typesOf(schema);
  if (types.includes(undefined)) return false;
  if (typeof value === 'number' && (types.includes('number') || types.includes('integer'))) {
    return !zeroAccepted(schema);
  }
  if (typeof value === 'string' && types.includes('string')) return !stringAccepts(schema, value);
  // A placeholder of the wrong type: `0` for a string id, `""` for a number or an object.
  return value !== '0';
}

/**
 * Placeholders existing clients send in whole fetched objects (reference 0b) are normalised, never stored:
 * `"false"`/`"true"` strings for booleans become booleans; `null`, refused zero-valued placeholders, and an
 * object left empty once its own placeholders are unset (`"goal": {"amount": 0, "start": "", "end": ""}`)
 * mean "unset". Returns undefined for "unset".
 */
function normalizeValue(value: unknown, schema: JsonSchema, keepUnknown: boolean): unknown {
  if (value === null) return undefined;
  if (schema.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  if (isRefusedPlaceholder(value, schema)) return undefined;
  if (schema.type === 'object' && isPlainObject(value) && schema.properties) {
    // An object that allows no other members keeps them, so that its schema refuses them (a 400), not drops them.
    const picked = pick(
      value,
      schema.properties as Record<string, JsonSchema>,
      keepUnknown || schema.additionalProperties === false,
    );
    return Object.keys(picked).length && !isPlaceholderObject(value, picked, schema) ? picked : undefined;
  }
  return value;
}

const ZERO_VALUES = new Set<unknown>(['', 0, '0', null, false]);

/**
 * An object of nothing but zero values (`"transaction": {"account": "", "amount": 0}`) that lacks a member
 * its schema requires once the refused ones are unset: a placeholder for "no object", not a broken one.
 */
function isPlaceholderObject(
  sent: Record<string, unknown>,
  picked: Record<string, unknown>,
  schema: JsonSchema,
): boolean {
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return (
    Object.values(sent).every((member) => ZERO_VALUES.has(member)) &&
    required.some((name) => !(name in picked))
  );
}

/** The declared properties, normalised; undeclared ones dropped, or kept verbatim with `keepUnknown`. */
function pick(
  body: Record<string, unknown>,
  properties: Record<string, JsonSchema>,
  keepUnknown: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(body)) {
    const schema = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (!schema) {
      if (keepUnknown) out[name] = item;
      continue;
    }
    const value = name === 'extra' ? item : normalizeValue(item, schema, keepUnknown);
    if (value !== undefined && value !== null) out[name] = value;
  }
  return out;
}

/**
 * Keeps only the writable properties (read-only ones such as id, created, deleted, counts are ignored,
 * not errors) and normalises placeholders. A body that is not a JSON object is a 400. Every write route
 * that has a schema runs its body through here, so the tolerance rules are the same everywhere
 * (docs/conventions.md "What PFS tolerates").
 */
export function normalizeBody(
  body: unknown,
  properties: Record<string, JsonSchema>,
): Record<string, unknown> {
  if (!isPlainObject(body)) throw inputError([{ field: '(body)', error: 'must be a JSON object' }]);
  return pick(body, properties, false);
}

/**
 * Only the placeholder rules of `normalizeBody`, keeping every undeclared member as sent (the route decides
 * about those): the step every JSON write goes through before its route (placeholder-bodies.ts).
 */
export function unsetPlaceholders(
  body: Record<string, unknown>,
  properties: Record<string, JsonSchema>,
): Record<string, unknown> {
  return pick(body, properties, true);
}
