import { ALL_SCOPES, SCOPE_DESCRIPTIONS } from '@pfs/contracts';
import { ERROR_SCHEMA, HEADERS, responsesOf } from './openapi-responses';
import { createSchemaOf, HyperLink, JsonSchema, ResourceSchema, updateSchemaOf } from './resource-schema';
import { VENDOR_MEDIA_TYPE } from './media-type';

export interface OpenApiOptions {
  /** BASE_URL of the API: the document's server. */
  baseUrl: string;
  /** AUTH_URL of the authorization server: the OAuth 2.0 flows' endpoints. */
  authUrl: string;
  /**
   * Paths served beside the resource operations (the MCP endpoint and its metadata), each operation marked
   * `x-pfs-protocol`, with the tags they use.
   */
  protocol?: { paths: Record<string, Record<string, JsonSchema>>; tags: JsonSchema[] };
}

/** The scopes a link needs (all of them); none means any valid token. */
export function scopesOf(link: HyperLink): string[] {
  return (link.scope ?? '').split(/\s+/).filter(Boolean);
}

function parametersOf(link: HyperLink): JsonSchema[] {
  const path = [...link.href.matchAll(/\{(\w+)\}/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const required = (link.hrefSchema?.required as string[] | undefined) ?? [];
  const query = Object.entries((link.hrefSchema?.properties as Record<string, JsonSchema>) ?? {}).map(
    ([name, schema]) => ({ name, in: 'query', required: required.includes(name), schema }),
  );
  return [...path, ...query];
}

function requestBodyOf(schema: ResourceSchema, link: HyperLink): JsonSchema | undefined {
  if (!link.submission) return undefined;
  const body =
    link.submission === 'create'
      ? createSchemaOf(schema)
      : link.submission === 'update'
        ? updateSchemaOf(schema)
        : link.submission === 'patch'
          ? { type: 'object', description: 'JSON merge patch (RFC 7396); modified is required.' }
          : link.submission;
  // A create answering `object-or-list` also takes a batch: an array of create bodies, all or nothing.
  const batch = link.submission === 'create' && link.target === 'object-or-list';
  const accepted = batch ? { oneOf: [body, { type: 'array', items: body, minItems: 1 }] } : body;
  const types = link.submissionMediaTypes ?? ['application/json', VENDOR_MEDIA_TYPE];
  return { required: true, content: Object.fromEntries(types.map((type) => [type, { schema: accepted }])) };
}

function descriptionOf(link: HyperLink): string {
  const scopes = scopesOf(link);
  const needs = scopes.length
    ? `the ${scopes.join(' and ')} scope${scopes.length > 1 ? 's' : ''}`
    : 'any valid token';
  return `${link.title}. Needs ${needs}.`;
}

/** Any scoped operation accepts an OAuth 2.0 token holding the scopes, or a personal token. */
function securityOf(link: HyperLink): JsonSchema[] {
  return [{ oauth2: scopesOf(link) }, { personalToken: [] }];
}

function securitySchemes(authUrl: string): JsonSchema {
  const scopes = Object.fromEntries(ALL_SCOPES.map((scope) => [scope, SCOPE_DESCRIPTIONS[scope] ?? scope]));
  const authorizationUrl = `${authUrl}/oauth2/authorize`;
  const tokenUrl = `${authUrl}/oauth2/token`;
  return {
    oauth2: {
      type: 'oauth2',
      description: 'Tokens of the PFS authorization server (docs/oauth.md).',
      flows: {
        authorizationCode: { authorizationUrl, tokenUrl, refreshUrl: tokenUrl, scopes },
        implicit: { authorizationUrl, refreshUrl: tokenUrl, scopes },
      },
    },
    personalToken: {
      type: 'http',
      scheme: 'basic',
      description: 'Personal token as user name, empty password.',
    },
  };
}

/** OpenAPI 3.1 derived from the registered hyper-schemas: one operation per link. */
export function buildOpenApi(schemas: ResourceSchema[], options: OpenApiOptions): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const components: Record<string, JsonSchema> = { Error: ERROR_SCHEMA };
  for (const schema of schemas) {
    components[schema.name] = { type: 'object', title: schema.title, properties: schema.properties };
    for (const link of schema.links) {
      const operation: JsonSchema = {
        summary: link.title,
        description: descriptionOf(link),
        operationId: `${schema.name}.${link.rel}`,
        tags: [schema.name],
        parameters: parametersOf(link),
        responses: responsesOf(schema, link),
        security: securityOf(link),
      };
      const body = requestBodyOf(schema, link);
      if (body) operation.requestBody = body;
      (paths[link.href] ??= {})[link.method.toLowerCase()] = operation;
    }
  }
  // A resource no response carries (push is write-only) has no component: nothing would use it.
  const used = JSON.stringify(paths);
  for (const name of Object.keys(components)) {
    if (!used.includes(`"#/components/schemas/${name}"`)) delete components[name];
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'PFS resource API',
      version: '1',
      description: 'The Personal Finance Service: an open, self-hostable HTTP API over a person’s money.',
      contact: { name: 'PFS API documentation', url: `${options.baseUrl}/docs` },
    },
    servers: [{ url: options.baseUrl }],
    tags: [
      ...schemas.map((schema) => ({ name: schema.name, description: schema.description ?? schema.title })),
      ...(options.protocol?.tags ?? []),
    ],
    paths: { ...paths, ...options.protocol?.paths },
    components: { schemas: components, headers: HEADERS, securitySchemes: securitySchemes(options.authUrl) },
  };
}
