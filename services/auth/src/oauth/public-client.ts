import type { OAuthClientRecord } from '@pfs/resource-store';

/**
 * A public client cannot keep a secret (RFC 6749 §2.1): one registered for the implicit grant (a browser or
 * mobile app), or one registered dynamically with token_endpoint_auth_method `none` (an assistant over MCP).
 * Its code flow must use PKCE, and its token requests carry no secret.
 */
export function isPublicClient(
  client: Pick<OAuthClientRecord, 'grants' | 'tokenEndpointAuthMethod'>,
): boolean {
  return client.grants.includes('implicit') || client.tokenEndpointAuthMethod === 'none';
}

/**
 * RFC 8707: the `resource` values of a request (zero, one or several), or `invalid` when one is not among
 * the resources this server issues tokens for (the answer is then invalid_target).
 */
export function checkResourceIndicators(raw: unknown, known: readonly string[]): 'ok' | 'invalid' {
  if (raw === undefined) return 'ok';
  const values = Array.isArray(raw) ? raw : [raw];
  return values.every((value) => typeof value === 'string' && known.includes(value)) ? 'ok' : 'invalid';
}
