/**
 * What the API (the MCP server, an OAuth protected resource) and the auth service (the authorization
 * server) agree on for assistants that connect over the Model Context Protocol (docs/mcp.md).
 */

/** Where the API serves the MCP endpoint. */
export const MCP_PATH = '/mcp';

/**
 * The scopes the MCP tools use, advertised in the protected resource metadata (RFC 9728 scopes_supported):
 * an MCP client asks for these unless configured otherwise, and a dynamically registered client that names
 * no scope is registered with them. `entries:rw` also reads tags (scopes.ts of @pfs/resource-api).
 */
export const MCP_SCOPES: readonly string[] = [
  'accounts:r',
  'budgets:r',
  'categories:r',
  'entries:rw',
  'user:r',
];

/** Strips a trailing slash so `https://api.example/` and `https://api.example` name one resource. */
const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * The resource indicators (RFC 8707) that name the API: its base URL and its MCP endpoint. A token request
 * naming anything else is refused with invalid_target.
 */
export function apiResourceIndicators(baseUrl: string): string[] {
  const base = withoutTrailingSlash(baseUrl);
  return [base, `${base}/`, `${base}${MCP_PATH}`];
}
