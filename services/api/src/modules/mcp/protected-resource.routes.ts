import { MCP_PATH, MCP_SCOPES } from '@pfs/contracts';
import { Router, type Request } from 'express';

const METADATA_PATH = '/.well-known/oauth-protected-resource';

/** The metadata document's URL for a request: the `/mcp`-suffixed one for the MCP endpoint (RFC 9728 §3.1). */
export function resourceMetadataUrl(baseUrl: string, req: Request): string {
  const suffix = req.path === MCP_PATH || req.path.startsWith(`${MCP_PATH}/`) ? MCP_PATH : '';
  return `${baseUrl}${METADATA_PATH}${suffix}`;
}

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728): the API names its authorization server, so an MCP
 * client that met a 401 finds where to register and sign the user in. Public, like the schemas.
 * `/.well-known/oauth-protected-resource` describes the whole API, `…/mcp` the MCP endpoint.
 */
export function protectedResourceRoutes(config: { BASE_URL: string; AUTH_URL: string }): Router {
  const router = Router();
  const documentFor = (resource: string) => ({
    resource,
    authorization_servers: [config.AUTH_URL],
    scopes_supported: MCP_SCOPES,
    bearer_methods_supported: ['header'],
    resource_name: 'PFS (Personal Finance Service)',
    resource_documentation: `${config.BASE_URL}/docs`,
  });
  const api = documentFor(config.BASE_URL);
  const mcp = documentFor(`${config.BASE_URL}${MCP_PATH}`);
  router.get(METADATA_PATH, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.json(api);
  });
  router.get(`${METADATA_PATH}${MCP_PATH}`, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.json(mcp);
  });
  return router;
}
