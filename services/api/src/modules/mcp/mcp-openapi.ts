import { MCP_PATH, MCP_SCOPES } from '@pfs/contracts';
import type { JsonSchema } from '@pfs/resource-api';

const error = (description: string): JsonSchema => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const metadataDocument: JsonSchema = {
  type: 'object',
  required: ['resource', 'authorization_servers'],
  properties: {
    resource: { type: 'string', format: 'uri' },
    authorization_servers: { type: 'array', items: { type: 'string', format: 'uri' } },
    scopes_supported: { type: 'array', items: { type: 'string', enum: [...MCP_SCOPES] } },
    bearer_methods_supported: { type: 'array', items: { type: 'string', enum: ['header'] } },
    resource_name: { type: 'string' },
    resource_documentation: { type: 'string', format: 'uri' },
  },
};

function metadataOperation(which: string, operationId: string): JsonSchema {
  return {
    summary: `OAuth 2.0 protected resource metadata (RFC 9728) of ${which}`,
    description:
      'Names the authorization server and the scopes the MCP tools use; public (no token). docs/mcp.md.',
    operationId,
    tags: ['mcp'],
    'x-pfs-protocol': 'oauth-protected-resource',
    security: [],
    responses: {
      '200': {
        description: 'The metadata document.',
        content: { 'application/json': { schema: metadataDocument } },
      },
      '400': error('A malformed request target (refused before any route).'),
    },
  };
}

const jsonRpc: JsonSchema = {
  type: 'object',
  required: ['jsonrpc'],
  description:
    'A JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call, …).',
  properties: { jsonrpc: { type: 'string', const: '2.0' }, id: {}, method: { type: 'string' } },
};

/**
 * The MCP endpoint and its metadata as /openapi.json publishes them: not resource operations (the tools
 * are described by tools/list, docs/mcp.md), so they are marked `x-pfs-protocol` for tools that walk
 * resource operations.
 */
export function mcpOpenApi(): { paths: Record<string, Record<string, JsonSchema>>; tags: JsonSchema[] } {
  return {
    tags: [{ name: 'mcp', description: 'Model Context Protocol endpoint for AI assistants (docs/mcp.md)' }],
    paths: {
      [MCP_PATH]: {
        post: {
          summary: 'Model Context Protocol endpoint (streamable HTTP, stateless)',
          description:
            'JSON-RPC messages of MCP over the streamable HTTP transport, stateless (no Mcp-Session-Id) with JSON answers. Send `Accept: application/json, text/event-stream`. Each tool needs the scope of the operation it runs (tools/list names it). Without a valid token: 401 whose WWW-Authenticate names the protected resource metadata. GET and DELETE answer 405. docs/mcp.md.',
          operationId: 'mcp.post',
          tags: ['mcp'],
          'x-pfs-protocol': 'mcp',
          security: [{ oauth2: [] }, { personalToken: [] }],
          requestBody: { required: true, content: { 'application/json': { schema: jsonRpc } } },
          responses: {
            '200': {
              description: 'The JSON-RPC response (a tool refusal is a result with isError: true).',
              content: { 'application/json': { schema: jsonRpc } },
            },
            '202': { description: 'A notification or response was accepted (no body).' },
            '400': { description: 'Not a JSON-RPC message (a JSON-RPC error body).' },
            '401': error('No valid token: WWW-Authenticate names resource_metadata.'),
            '406': { description: 'Accept lacks application/json and text/event-stream.' },
            '429': error('Rate limit reached (Retry-After).'),
          },
        },
      },
      '/.well-known/oauth-protected-resource': {
        get: metadataOperation('the API', 'mcp.protectedResource'),
      },
      [`/.well-known/oauth-protected-resource${MCP_PATH}`]: {
        get: metadataOperation('the MCP endpoint', 'mcp.protectedResourceMcp'),
      },
    },
  };
}
