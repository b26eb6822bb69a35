import type { JsonSchema } from './resource-schema';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A merged PUT/PATCH state as the published schema sees it: stored snapshots keep amounts as exact text where
 * clients send JSON numbers, so each `type: 'number'` member given as text is read as a number (for validation
 * only: the state itself keeps the exact text).
 */
export function asJsonNumbers(
  state: Record<string, unknown>,
  properties: Record<string, JsonSchema>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...state };
  for (const [name, value] of Object.entries(state)) {
    const schema = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (!schema) continue;
    if (schema.type === 'number' && typeof value === 'string') out[name] = Number(value);
    else if (isPlainObject(value) && isPlainObject(schema.properties))
      out[name] = asJsonNumbers(value, schema.properties as Record<string, JsonSchema>);
  }
  return out;
}
