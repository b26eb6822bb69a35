/** A JSON Schema (draft 2019-09) fragment. */
export type JsonSchema = Record<string, unknown>;

/** One JSON Hyper-Schema (2019-09) link of a resource, also the source of the OpenAPI operation. */
export interface HyperLink {
  rel: string;
  /** URI template relative to BASE_URL: `/categories/{id}`. */
  href: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  title: string;
  /** Query parameters (a JSON Schema object), for lists and filters. */
  hrefSchema?: JsonSchema;
  /** Request body: `create` / `update` name the derived schemas, or give a schema. */
  submission?: 'create' | 'update' | 'patch' | JsonSchema;
  /** What the response body is: one object, a list of them, or nothing. */
  /** `object-or-list`: one object for a JSON object body, a list for an array body (batch create). */
  target?: 'object' | 'list' | 'object-or-list' | 'none' | JsonSchema;
  /** With target `list`: the item, when it is not this resource's representation (computed rows). */
  listItem?: JsonSchema;
  /** Media types of a non-JSON request body (a file upload); default: JSON. */
  submissionMediaTypes?: string[];
  /** Media types of a non-JSON response (a file download); default: the JSON representation. */
  targetMediaTypes?: string[];
  /**
   * Scopes needed, space-separated (all of them), shown in the docs and OpenAPI; none: any valid token
   * (the route must still authenticate). It must say what the route enforces (the contract test checks).
   */
  scope?: string;
  /** `false`: a GET answered `no-store` (a live status): no validators, no 304 declared. Default true. */
  cacheable?: boolean;
}

/**
 * What a resource declares once; the layer serves it at `GET /schema/<name>`, derives the request
 * validators and the OpenAPI document from it, so docs and validation never drift.
 */
export interface ResourceSchema {
  /** `categories`: the schema's path and the profile in Content-Type. */
  name: string;
  title: string;
  description?: string;
  /** The representation: `properties` with `readOnly: true` on server-owned fields. */
  properties: Record<string, JsonSchema>;
  /** Fields a create must send (besides the always-optional ones). */
  createRequired: string[];
  /** Fields a PUT must send (`modified` is always required and added by the layer). */
  updateRequired?: string[];
  links: HyperLink[];
}

/** What the write schemas are derived from: a resource's fields, with or without its links. */
type SchemaFields = Pick<ResourceSchema, 'properties' | 'createRequired' | 'updateRequired'>;

const isReadOnly = (schema: JsonSchema) => schema.readOnly === true;

/** The writable properties (read-only ones dropped; `modified` kept only for updates). */
export function writableProperties(schema: SchemaFields, forUpdate: boolean): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    if (name === 'modified' ? forUpdate : !isReadOnly(property)) out[name] = stripReadOnly(property);
  }
  if (forUpdate) out.modified = { type: 'string', description: 'The modified value last received.' };
  return out;
}

function stripReadOnly(property: JsonSchema): JsonSchema {
  if (property.type !== 'object' || !property.properties) return property;
  const properties: Record<string, JsonSchema> = {};
  for (const [name, inner] of Object.entries(property.properties as Record<string, JsonSchema>)) {
    if (!isReadOnly(inner)) properties[name] = stripReadOnly(inner);
  }
  return { ...property, properties };
}

export function createSchemaOf(schema: SchemaFields): JsonSchema {
  return { type: 'object', properties: writableProperties(schema, false), required: schema.createRequired };
}

export function updateSchemaOf(schema: SchemaFields): JsonSchema {
  const required = [...new Set([...(schema.updateRequired ?? schema.createRequired), 'modified'])];
  return { type: 'object', properties: writableProperties(schema, true), required };
}

/** The JSON Hyper-Schema document served at `/schema/<name>`. */
export function hyperSchemaDocument(schema: ResourceSchema, baseUrl: string): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2019-09/hyper-schema',
    $id: `${baseUrl}/schema/${schema.name}`,
    title: schema.title,
    description: schema.description,
    type: 'object',
    properties: schema.properties,
    base: baseUrl,
    $defs: { create: createSchemaOf(schema), update: updateSchemaOf(schema) },
    links: schema.links.map((link) => ({
      rel: link.rel,
      href: link.href,
      title: link.title,
      targetHints: { allow: [link.method], ...(link.scope ? { scope: [link.scope] } : {}) },
      ...(link.hrefSchema ? { hrefSchema: link.hrefSchema } : {}),
      ...(link.submission
        ? { submissionMediaType: link.submissionMediaTypes?.join(', ') ?? 'application/vnd.service+json' }
        : {}),
      ...(link.targetMediaTypes ? { targetMediaType: link.targetMediaTypes.join(', ') } : {}),
      ...(link.submission === 'create' ? { submissionSchema: { $ref: '#/$defs/create' } } : {}),
      ...(link.submission === 'update' ? { submissionSchema: { $ref: '#/$defs/update' } } : {}),
      ...(link.submission === 'patch' ? { submissionSchema: { type: 'object' } } : {}),
      ...(typeof link.submission === 'object' ? { submissionSchema: link.submission } : {}),
      ...(link.target === 'object' ? { targetSchema: { $ref: '#' } } : {}),
      ...(link.target === 'object-or-list'
        ? { targetSchema: { oneOf: [{ $ref: '#' }, { type: 'array', items: { $ref: '#' } }] } }
        : {}),
      ...(link.target === 'list'
        ? { targetSchema: { type: 'array', items: link.listItem ?? { $ref: '#' } } }
        : {}),
      ...(typeof link.target === 'object' ? { targetSchema: link.target } : {}),
    })),
  };
}
