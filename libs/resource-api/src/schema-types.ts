import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/**
 * A decimal of a write: the JSON number a client sends, or the exact text a stored snapshot keeps (a merged
 * PUT/PATCH state mixes both). `parseAmount` reads either without going through a float.
 */
export type Amount = number | string;

/** Properties of a resource schema written `as const`, so their types can be derived. */
type ConstProperties = Readonly<Record<string, unknown>>;

/** The names of the properties a client may write (`readOnly: true` ones are the server's). */
type WritableKeys<P> = { [K in keyof P]: P[K] extends { readOnly: true } ? never : K }[keyof P];

/** The schema of the writable part, read-only members dropped at every level, as `writableProperties` does. */
type Writable<S> = S extends { type: 'object'; properties: infer P }
  ? Omit<S, 'properties'> & { properties: { [K in WritableKeys<P>]: Writable<P[K]> } }
  : S;

/**
 * The type of a write body once the published schema has validated it (`SchemaRegistry`): derived from the
 * very `properties` and required list that `GET /schema/<name>` serves, so the two cannot drift. Undeclared
 * members are dropped before validation, so none are typed; every `type: 'number'` is an `Amount`.
 */
export type WriteBodyOf<P extends ConstProperties, Required extends readonly string[]> = FromValidSchema<{
  type: 'object';
  properties: { [K in WritableKeys<P>]: Writable<P[K]> };
  required: Required;
  additionalProperties: false;
}>;

type FromValidSchema<S> = S extends JSONSchema
  ? FromSchema<S, { deserialize: [{ pattern: { type: 'number' }; output: Amount }] }>
  : never;

/**
 * The type of an action link's submission (merge, reorder, move) once `SchemaRegistry.submissionReader` has
 * validated it: derived from the very schema object the link publishes (written `as const`).
 */
export type SubmissionOf<S> = FromValidSchema<S>;
