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
  'X-RateLimit-Limit': {
    description: 'Requests this token (or address, without one) may make per rate-limit window.',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window (a 304 gives its request back).',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
};

/** Sent on every answer of an authenticated operation: the rate limit is applied before anything else. */
const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining'];

const LIST_HEADERS = ['Link', 'X-Total-Count', 'Service-Modified', 'ETag'];
const OBJECT_HEADERS = ['ETag', 'Last-Modified'];

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
  const isGet = link.method === 'GET';
  const cacheable = link.cacheable !== false;
  // A 304 repeats the headers of the 200 it stands for (RFC 9110 15.4.5; the list headers too).
  const notModified = (headers: string[]) => ({
    '304': { description: 'Not modified (If-None-Match / If-Modified-Since).', headers: headerRefs(headers) },
  });
  if (link.targetMediaTypes) {
    const file = { type: 'string', format: 'binary' };
    return {
      '200': {
        description: 'The file',
        headers: headerRefs(['ETag']),
        content: Object.fromEntries(link.targetMediaTypes.map((type) => [type, { schema: file }])),
      },
      ...notModified(['ETag']),
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
        headers: headerRefs(LIST_HEADERS),
        content: jsonContent({ type: 'array', items: link.listItem ?? ref }),
      },
      ...(isGet ? notModified(LIST_HEADERS) : {}),
    };
  }
  return {
    '200': {
      description: 'OK',
      ...(cacheable ? { headers: headerRefs(OBJECT_HEADERS) } : {}),
      content: jsonContent(target === 'object' || target === 'object-or-list' ? ref : target),
    },
    ...(isGet && cacheable ? notModified(OBJECT_HEADERS) : {}),
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
  return withRateLimitHeaders({
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
  });
}

/**
 * Adds X-RateLimit-* to every response. A 503 may come from the rate-limit store itself being down, when
 * no count exists to report: there they are declared but not required.
 */
function withRateLimitHeaders(responses: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const optional = Object.fromEntries(
    RATE_LIMIT_HEADERS.map((name) => [
      name,
      {
        ...HEADERS[name],
        required: false,
        description: `${HEADERS[name].description} Absent when the rate-limit store is down.`,
      },
    ]),
  );
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [
      status,
      {
        ...response,
        headers: {
          ...(response.headers as JsonSchema | undefined),
          ...(status === '503' ? optional : headerRefs(RATE_LIMIT_HEADERS)),
        },
      },
    ]),
  );
}
