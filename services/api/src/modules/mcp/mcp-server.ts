import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApiOperation } from '../../http/api-operation';
import type { RequestContext } from '../../http/request-context';
import type { McpTool } from './mcp-tool';
import { MCP_TOOLS } from './mcp-tools';
import { callOperation } from './operation-call';

/** Each tool with the operation it runs, found once when the app is built. */
export interface BoundTool {
  tool: McpTool;
  operation: ApiOperation;
}

/** Binds every tool to its operation by `METHOD /path`; a tool naming no operation is a programming error. */
export function bindTools(operations: readonly ApiOperation[]): BoundTool[] {
  return MCP_TOOLS.map((tool) => {
    const operation = operations.find(
      (candidate) => `${candidate.method} ${candidate.href}` === tool.operation,
    );
    if (!operation) throw new Error(`MCP tool ${tool.name}: no operation ${tool.operation}`);
    return { tool, operation };
  });
}

const text = (value: unknown): CallToolResult['content'] => [{ type: 'text', text: JSON.stringify(value) }];

/** Runs one tool for the caller: its operation in process, the answer made compact, a refusal as a tool error. */
async function callTool(bound: BoundTool, caller: RequestContext, args: Record<string, unknown>) {
  const answer = await callOperation(bound.operation, caller, bound.tool.toInput(args));
  if (answer.status >= 400) {
    return { isError: true, content: text({ status: answer.status, ...(answer.body as object) }) };
  }
  return { content: text(bound.tool.compact(answer, args)) };
}

/**
 * The MCP server of one request (stateless: nothing outlives the request, so any process can answer any
 * call). It lists the tools and runs them as the authenticated caller.
 */
export function mcpServerFor(tools: readonly BoundTool[], caller: RequestContext): Server {
  const server = new Server(
    { name: 'pfs', title: 'PFS (Personal Finance Service)', version: '1.0.0' },
    {
      capabilities: { tools: {} },
      instructions:
        'Personal finances of the signed-in user: entries (expenses, incomes, transfers), accounts, budgets, categories, tags, sums and summaries. Ids come from the list tools; amounts are negative for expenses.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ tool, operation }) => ({
      name: tool.name,
      title: tool.title,
      description: `${tool.description} Needs scope ${operation.scope ?? 'none'}.`,
      inputSchema: tool.inputSchema(operation) as { type: 'object'; properties?: Record<string, object> },
      annotations: {
        title: tool.title,
        readOnlyHint: tool.readOnly,
        destructiveHint: tool.destructive ?? false,
        openWorldHint: false,
      },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const bound = tools.find(({ tool }) => tool.name === request.params.name);
    if (!bound) {
      return { isError: true, content: text({ description: `Unknown tool: ${request.params.name}` }) };
    }
    return callTool(bound, caller, request.params.arguments ?? {});
  });
  return server;
}
