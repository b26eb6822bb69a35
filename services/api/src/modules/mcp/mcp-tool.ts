import type { JsonSchema } from '@pfs/resource-api';
import type { ApiOperation } from '../../http/api-operation';
import type { OperationAnswer, OperationInput } from './operation-call';

export type Args = Record<string, unknown>;

/** One MCP tool: the REST operation it runs, how its arguments become that call, and its compact answer. */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  /** The operation, as `METHOD /path` of the published API (its scope gates the tool). */
  operation: string;
  /** The tool's input schema; for a list, the operation's own query schema without the sync parameters. */
  inputSchema: (operation: ApiOperation) => JsonSchema;
  toInput(args: Args): OperationInput;
  compact(answer: OperationAnswer, args: Args): unknown;
  readOnly: boolean;
  destructive?: boolean;
}

/** Lists page by 50 in a tool unless asked otherwise: an assistant reads every row it gets. */
const TOOL_PER_PAGE = '50';

/** Query parameters as the REST route reads them: strings, lists comma-separated. */
export function queryOf(args: Args, options: { perPage?: boolean } = {}): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    query[name] = Array.isArray(value) ? value.join(',') : String(value);
  }
  if (options.perPage && query.per_page === undefined) query.per_page = TOOL_PER_PAGE;
  return query;
}

/** The operation's query schema without `since` and `include_deleted` (sync is for replicas, not assistants). */
export function listQuerySchema(operation: ApiOperation, omit: readonly string[] = []): JsonSchema {
  const declared = (operation.hrefSchema ?? { type: 'object', properties: {} }) as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  const hidden = ['since', 'include_deleted', ...omit];
  const properties = Object.fromEntries(
    Object.entries(declared.properties ?? {}).filter(([name]) => !hidden.includes(name)),
  );
  if (properties.per_page) {
    properties.per_page = {
      ...(properties.per_page as object),
      default: Number(TOOL_PER_PAGE),
    } as JsonSchema;
  }
  return { type: 'object', properties, ...(declared.required ? { required: declared.required } : {}) };
}
