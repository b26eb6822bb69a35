import { createSchemaOf, HyperLink, JsonSchema, ResourceSchema, updateSchemaOf } from './resource-schema';
import { VENDOR_MEDIA_TYPE } from './media-type';

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error_id', 'description'],
  properties: {
    error_id: { type: 'string' },
    description: { type: 'string' },
    fields: {
      type: 'array',
      items: { type: 'object', properties: { field: { type: 'string' }, error: { type: 'string' } } },
    },
    request_id: { type: 'string' },
  },
};

function parametersOf(link: HyperLink): JsonSchema[] {
  const path = [...link.href.matchAll(/\{(\w+)\}/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query = Object.entries((link.hrefSchema?.properties as Record<string, JsonSchema>) ?? {}).map(
    ([name, schema]) => ({ name, in: 'query', required: false, schema }),
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
  const types = link.submissionMediaTypes ?? ['application/json', VENDOR_MEDIA_TYPE];
  return { required: true, content: Object.fromEntries(types.map((type) => [type, { schema: body }])) };
}

function responsesOf(schema: ResourceSchema, link: HyperLink): JsonSchema {
  const ref = { $ref: `#/components/schemas/${schema.name}` };
  const error = {
    description: 'Error',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
  const target = link.target ?? 'none';
  const file = { type: 'string', format: 'binary' };
  const ok = link.targetMediaTypes
    ? {
        '200': {
          description: 'The file',
          content: Object.fromEntries(link.targetMediaTypes.map((type) => [type, { schema: file }])),
        },
        '304': { description: 'Not modified (If-None-Match).' },
      }
    : link.method === 'POST' && link.rel === 'create'
      ? { '201': { description: 'Created; Location names the new object.' } }
      : target === 'none'
        ? { '204': { description: 'Done.' } }
        : {
            '200': {
              description: 'OK',
              content: {
                [VENDOR_MEDIA_TYPE]: {
                  schema:
                    target === 'list' ? { type: 'array', items: ref } : target === 'object' ? ref : target,
                },
              },
            },
            '304': { description: 'Not modified (If-None-Match / If-Modified-Since).' },
          };
  return { ...ok, '400': error, '401': error, '403': error, '404': error, '409': error, '429': error };
}

/** OpenAPI 3.1 derived from the registered hyper-schemas: one operation per link. */
export function buildOpenApi(schemas: ResourceSchema[], baseUrl: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const components: Record<string, JsonSchema> = { Error: ERROR_SCHEMA };
  for (const schema of schemas) {
    components[schema.name] = { type: 'object', title: schema.title, properties: schema.properties };
    for (const link of schema.links) {
      const operation: JsonSchema = {
        summary: link.title,
        operationId: `${schema.name}.${link.rel}`,
        tags: [schema.name],
        parameters: parametersOf(link),
        responses: responsesOf(schema, link),
        ...(link.scope ? { security: [{ oauth2: [link.scope] }, { personalToken: [] }] } : {}),
      };
      const body = requestBodyOf(schema, link);
      if (body) operation.requestBody = body;
      (paths[link.href] ??= {})[link.method.toLowerCase()] = operation;
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'PFS resource API', version: '1' },
    servers: [{ url: baseUrl }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: {} },
        personalToken: {
          type: 'http',
          scheme: 'basic',
          description: 'Personal token as user name, empty password.',
        },
      },
    },
  };
}
