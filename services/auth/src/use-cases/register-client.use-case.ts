import { formatScope, generateToken, isKnownScope, MCP_SCOPES, parseScope } from '@pfs/contracts';
import { z } from 'zod';
import type { AuthRepositories } from '../auth-repositories';

/** RFC 7591 §3.2.2: what a refused registration answers. */
export class RegistrationError extends Error {
  constructor(
    readonly error: 'invalid_redirect_uri' | 'invalid_client_metadata',
    readonly description: string,
  ) {
    super(description);
    this.name = 'RegistrationError';
  }
}

const LOOPBACK_HOSTS = ['127.0.0.1', '[::1]', 'localhost'];

/**
 * A redirect URI a registered client may use (RFC 8252 §7.3 and §8.3, OAuth 2.1): https, or plain http to
 * a loopback address (a native app or a command-line assistant listening on this machine); no fragment.
 */
function redirectUriProblem(uri: string): string | undefined {
  if (!URL.canParse(uri)) return `${uri.slice(0, 100)} must be an absolute URI`;
  const url = new URL(uri);
  if (url.hash || uri.includes('#')) return `${uri} must not contain a fragment`;
  if (url.username || url.password) return `${uri} must not carry credentials`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname)) return undefined;
  return `${uri} must use https, or http to a loopback address (127.0.0.1, [::1], localhost)`;
}

const RegistrationSchema = z.object({
  redirect_uris: z.array(z.string().max(2000)).min(1).max(10),
  client_name: z.string().trim().min(1).max(100).optional(),
  token_endpoint_auth_method: z.string().optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  scope: z.string().max(1000).optional(),
});

export interface RegisteredClientInformation {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: 'none';
  scope: string;
}

const GRANT_TYPES = ['authorization_code', 'refresh_token'];

function parseRequest(body: unknown) {
  const parsed = RegistrationSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.join('.') || 'body';
    throw new RegistrationError('invalid_client_metadata', `${field}: ${issue.message}`);
  }
  const data = parsed.data;
  for (const uri of data.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new RegistrationError('invalid_redirect_uri', problem);
  }
  const grants = data.grant_types ?? ['authorization_code'];
  if (!grants.every((grant) => GRANT_TYPES.includes(grant)) || !grants.includes('authorization_code')) {
    throw new RegistrationError(
      'invalid_client_metadata',
      `grant_types must be authorization_code, optionally with refresh_token (got ${grants.join(' ')})`,
    );
  }
  if (data.response_types && data.response_types.some((type) => type !== 'code')) {
    throw new RegistrationError('invalid_client_metadata', 'response_types must be ["code"]');
  }
  const scopes = data.scope === undefined ? [...MCP_SCOPES] : parseScope(data.scope);
  if (scopes.length === 0 || !scopes.every(isKnownScope)) {
    throw new RegistrationError('invalid_client_metadata', `scope names an unknown scope: ${data.scope}`);
  }
  return { data, scope: formatScope(scopes) };
}

/**
 * Dynamic Client Registration (RFC 7591) for assistants connecting over MCP: anyone may register, and every
 * registered client is public: no secret (token_endpoint_auth_method `none`, whatever was asked: RFC 7591
 * §3.2.1 lets the server replace a value), PKCE required, https or loopback redirect URIs only. It gets a
 * grant only once a user consents, and appears then under that user's connected applications.
 */
export async function registerClient(
  deps: { repos: Pick<AuthRepositories, 'clients'> },
  body: unknown,
): Promise<RegisteredClientInformation> {
  const { data, scope } = parseRequest(body);
  const clientId = `dyn_${generateToken(16)}`;
  const name = data.client_name ?? new URL(data.redirect_uris[0]).host;
  await deps.repos.clients.create({
    id: clientId,
    name,
    // No secret: the empty hash matches no secret (isClientSecret compares SHA-256 hex digests).
    secretHash: '',
    redirectUri: data.redirect_uris[0],
    redirectUris: data.redirect_uris,
    scope,
    grants: GRANT_TYPES,
    tokenEndpointAuthMethod: 'none',
    ownerUserId: null,
  });
  return {
    client_id: clientId,
    client_id_issued_at: Math.floor(Date.now() / 1000),
    client_name: name,
    redirect_uris: data.redirect_uris,
    grant_types: GRANT_TYPES,
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    scope,
  };
}
