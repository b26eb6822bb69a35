import { HyperLink, JsonSchema, ResourceSchema } from './resource-schema';
import { VENDOR_MEDIA_TYPE } from './media-type';

/** Every JSON answer comes as the vendor type (with a profile) or plain JSON, as the client's Accept asks. */
const JSON_TYPES = [VENDOR_MEDIA_TYPE, 'application/json'];

export const ERROR_SCHEMA: JsonSchema = {
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

/** Response headers the layer writes, declared once and referenced by name (required: always sent). */
export const HEADERS: Record<string, JsonSchema> = {
  ETag: { description: 'Strong validator of the representation.', schema: { type: 'string' } },
  'Last-Modified': { description: 'When the representation last changed.', schema: { type: 'string' } },
  Link: {
    description: 'RFC 8288 page links (first, prev, next, last) of this list.',
    required: true,
    schema: { type: 'string', pattern: 'rel="' },
  },
  'X-Total-Count': {
    description: 'Items in the whole list.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'Service-Modified': {
    description: 'Send it back as since to get only what changed.',
    schema: { type: 'string' },
  },
  Location: {
    description: 'Address of the created object.',
    required: true,
    schema: { type: 'string', format: 'uri' },
  },
  'WWW-Authenticate': { description: 'The authentication challenge.', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
};

const headerRefs = (names: string[]) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

const jsonContent = (schema: JsonSchema) => Object.fromEntries(JSON_TYPES.map((type) => [type, { schema }]));

const error = (description: string, headers: string[] = []): JsonSchema => ({
  description,
  ...(headers.length ? { headers: headerRefs(headers) } : {}),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** The answers of a link that succeeds: what the route sends, by status. */
function successOf(schema: ResourceSchema, link: HyperLink): Record<string, JsonSchema> {
  const ref = { $ref: `#/components/schemas/${schema.name}` };
  const notModified = { '304': { description: 'Not modified (If-None-Match / If-Modified-Since).' } };
  const isGet = link.method === 'GET';
  if (link.targetMediaTypes) {
    const file = { type: 'string', format: 'binary' };
    return {
      '200': {
        description: 'The file',
        headers: headerRefs(['ETag']),
        content: Object.fromEntries(link.targetMediaTypes.map((type) => [type, { schema: file }])),
      },
      ...notModified,
    };
  }
  if (link.method === 'POST' && link.rel === 'create') {
    // target says whether the 201 carries the created object (`object`; `object-or-list` for a batch) or only Location.
    const created =
      link.target === 'object'
        ? ref
        : link.target === 'object-or-list'
          ? { oneOf: [ref, { type: 'array', items: ref }] }
          : undefined;
    const body = created ? { content: jsonContent(created) } : {};
    const description = `Created; Location names the new object${body.content ? ', the body is it' : ''}.`;
    return { '201': { description, headers: headerRefs(['Location']), ...body } };
  }
  const target = link.target ?? 'none';
  if (target === 'none') return { '204': { description: 'Done.' } };
  if (target === 'list') {
    return {
      '200': {
        description: 'One page of the list.',
        headers: headerRefs(['Link', 'X-Total-Count', 'Service-Modified', 'ETag']),
        content: jsonContent({ type: 'array', items: link.listItem ?? ref }),
      },
      ...(isGet ? notModified : {}),
    };
  }
  return {
    '200': {
      description: 'OK',
      headers: headerRefs(['ETag', 'Last-Modified']),
      content: jsonContent(target === 'object' || target === 'object-or-list' ? ref : target),
    },
    ...(isGet ? notModified : {}),
  };
}

/**
 * Every status the route can answer, each as it is sent: the success of the link, then the errors of the
 * one error model (docs/errors.md) that its shape allows (a body can be refused, an id can be missing).
 */
export function responsesOf(schema: ResourceSchema, link: HyperLink): JsonSchema {
  const hasBody = Boolean(link.submission);
  const hasPathId = link.href.includes('{');
  const isWrite = link.method !== 'GET';
  return {
    ...successOf(schema, link),
    '400': error('The request is invalid; fields names each field and rule.'),
    '401': error('No valid token.', ['WWW-Authenticate']),
    '403': error('The token lacks a scope this operation needs.', ['WWW-Authenticate']),
    ...(hasPathId ? { '404': error('No such object for this user.') } : {}),
    '406': error('Accept names no JSON type this API produces.'),
    ...(isWrite
      ? { '409': error('The object changed since modified was read, or a conflicting state.') }
      : {}),
    ...(hasBody ? { '413': error('The body is too large.'), '415': error('The body is not JSON.') } : {}),
    '429': error('Rate limit reached.', ['Retry-After']),
    '503': error('A store is unavailable; retry later.', ['Retry-After']),
  };
}
