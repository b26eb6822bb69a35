import { ALL_SCOPES } from '@pfs/contracts';
import { Router } from 'express';

/** RFC 8414 authorization server metadata, so clients can discover our endpoints and capabilities. */
export function metadataRoutes(authUrl: string): Router {
  const router = Router();
  const document = {
    issuer: authUrl,
    authorization_endpoint: `${authUrl}/oauth2/authorize`,
    token_endpoint: `${authUrl}/oauth2/token`,
    revocation_endpoint: `${authUrl}/oauth2/revoke`,
    // RFC 7591: assistants connecting over MCP register themselves as public clients (docs/mcp.md).
    registration_endpoint: `${authUrl}/oauth2/register`,
    scopes_supported: ALL_SCOPES,
    response_types_supported: ['code', 'token'],
    response_modes_supported: ['query', 'fragment'],
    grant_types_supported: ['authorization_code', 'implicit', 'refresh_token'],
    // Basic is the spec's way; body credentials are accepted too, and public clients use PKCE alone (none).
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic'],
    code_challenge_methods_supported: ['S256'],
  };
  router.get('/.well-known/oauth-authorization-server', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.json(document);
  });
  return router;
}
