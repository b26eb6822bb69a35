import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { MCP_PATH } from '@pfs/contracts';
import { AppError } from '@pfs/errors';
import { bodyTextGuard, jsonDepthVerifier } from '@pfs/http';
import express, { Router } from 'express';
import type { ApiOperation } from '../../http/api-operation';
import { requestContext } from '../../http/request-context';
import { bindTools, mcpServerFor } from './mcp-server';

/**
 * `POST /mcp`: the Model Context Protocol endpoint (streamable HTTP transport of the official SDK, stateless
 * and answering in JSON), behind the same authentication and rate limit as every route. Mounted before the
 * API's JSON-only checks: MCP clients send `Accept: application/json, text/event-stream`.
 */
export function mcpRoutes(operations: readonly ApiOperation[]): Router {
  const tools = bindTools(operations);
  const router = Router();
  router.post(
    MCP_PATH,
    express.json({ limit: '256kb', verify: jsonDepthVerifier() }),
    bodyTextGuard,
    async (req, res) => {
      const server = mcpServerFor(tools, requestContext(req));
      // Stateless: no session id, a fresh server and transport per request, closed with the response.
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      res.on('close', () => {
        transport.close().catch(() => undefined);
        server.close().catch(() => undefined);
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    },
  );
  // Stateless: no server-sent event stream to open (GET) and no session to end (DELETE).
  router.all(MCP_PATH, (req) => {
    throw new AppError('METHOD_NOT_ALLOWED', {
      description: `${req.method} ${MCP_PATH} is not supported: send JSON-RPC messages with POST.`,
      headers: { Allow: 'POST' },
    });
  });
  return router;
}
