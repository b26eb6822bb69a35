import type { McpTool } from './mcp-tool';
import { readTools } from './mcp-read-tools';
import { entryWriteTools } from './mcp-write-tools';

/** Every tool of the MCP endpoint, in the order tools/list gives them (docs/mcp.md lists them). */
export const MCP_TOOLS: readonly McpTool[] = [...readTools, ...entryWriteTools];
