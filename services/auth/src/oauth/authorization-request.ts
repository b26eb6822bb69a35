import { isKnownScope, parseScope, sameScope } from '@pfs/contracts';
import type { ClientRepository, OAuthClientRecord } from '@pfs/resource-store';
import { checkResourceIndicators, isPublicClient } from './public-client';

/** The spec: `state` is truncated to 255 characters and returned unchanged otherwise. */
export const MAX_STATE_LENGTH = 255;

const PARAMETERS = [
  'client_id',
  'response_type',
  'scope',
  'redirect_uri',
  'state',
  'code_challenge',
  'code_challenge_method',
];

export interface AuthorizationParams {
  client_id: string;
  response_type: string;
  scope?: string;
  redirect_uri?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  /** RFC 8707 resource indicator: kept so the consent form carries it to the decision. */
  resource?: string;
}

export type AuthorizationCheck =
  /** Unknown client or bad redirect URI: shown on a page, never redirected (RFC 6749 §4.1.2.1). */
  | { outcome: 'error-page'; message: string }
  /** Any other problem goes back to the client's redirect URI. */
  | {
      outcome: 'redirect-error';
      redirectUri: string;
      /** The implicit grant answers in the fragment (RFC 6749 §4.2.2.1), the code grant in the query. */
      inFragment: boolean;
      error: string;
      description: string;
      state?: string;
    }
  | { outcome: 'valid'; client: OAuthClientRecord; params: AuthorizationParams; redirectUri: string };

type Input = Record<string, unknown>;

/** RFC 6749 Appendix A.5: state = 1*VSCHAR. The OAuth library refuses anything else, without the state. */
const VSCHAR = /^[\x20-\x7e]+$/;

/**
 * The state to send back on every redirect, errors included (the spec: "error and state (if sent)"): cut to
 * 255 characters; a repeated state gives its first value, so the invalid_request for it still carries one.
 */
function sentState(raw: unknown): string | undefined {
  const value = Array.isArray(raw) ? raw.find((item) => typeof item === 'string' && item !== '') : raw;
  // Characters, not UTF-16 units: a cut must not split a surrogate pair.
  return typeof value === 'string' && value !== ''
    ? Array.from(value).slice(0, MAX_STATE_LENGTH).join('')
    : undefined;
}

function single(input: Input, name: string): string | undefined {
  const value = input[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Step 1: who is asking, and where may we send the answer. */
async function resolveClientAndRedirect(input: Input, clients: ClientRepository) {
  const clientId = input.client_id;
  if (typeof clientId !== 'string' || clientId === '') {
    return { problem: 'The request names no valid client_id.' } as const;
  }
  const client = await clients.findById(clientId);
  if (!client) return { problem: 'This application is not registered.' } as const;
  const sent = input.redirect_uri;
  if (sent === undefined) {
    // RFC 6749 §3.1.2.3: with several registered URIs the request must say which one.
    if (client.redirectUris.length > 1) {
      return {
        problem: 'This application registered several redirect URIs: the request must name one.',
      } as const;
    }
    return { client, redirectUri: client.redirectUri } as const;
  }
  if (typeof sent !== 'string' || !client.redirectUris.includes(sent)) {
    return { problem: 'The redirect_uri does not match the one registered for this application.' } as const;
  }
  return { client, redirectUri: sent } as const;
}

/**
 * PKCE (RFC 7636): only S256 is accepted; a client registered for the implicit grant is a public client, so
 * its code flow must use PKCE (its secret cannot be kept, so the code alone must not be enough).
 */
function checkPkce(input: Input, client: OAuthClientRecord, responseType: string): string | undefined {
  const challenge = single(input, 'code_challenge');
  const method = single(input, 'code_challenge_method');
  if (responseType === 'token') {
    return challenge || method ? 'PKCE applies to the code flow only.' : undefined;
  }
  if (!challenge) {
    if (method) return 'code_challenge_method was sent without code_challenge.';
    return isPublicClient(client)
      ? 'This client must use PKCE: send code_challenge and code_challenge_method=S256.'
      : undefined;
  }
  if (method !== 'S256') return 'code_challenge_method must be S256.';
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(challenge)) {
    return 'code_challenge must be 43 to 128 characters of [A-Za-z0-9._~-].';
  }
  return undefined;
}

/** Validates an authorization request in the spec's order of checks, one named step each. */
export async function checkAuthorizationRequest(
  input: Input,
  clients: ClientRepository,
  /** The resource indicators (RFC 8707) this server issues tokens for. */
  resources: readonly string[] = [],
): Promise<AuthorizationCheck> {
  const resolved = await resolveClientAndRedirect(input, clients);
  if ('problem' in resolved) return { outcome: 'error-page', message: resolved.problem as string };
  const { client, redirectUri } = resolved;
  const state = sentState(input.state);
  const inFragment = input.response_type === 'token';
  const fail = (error: string, description: string): AuthorizationCheck => ({
    outcome: 'redirect-error',
    redirectUri,
    inFragment,
    error,
    description,
    state,
  });

  const repeated = PARAMETERS.find((name) => Array.isArray(input[name]));
  if (repeated) return fail('invalid_request', `The parameter ${repeated} is repeated.`);
  if (state !== undefined && !VSCHAR.test(state)) {
    return fail('invalid_request', 'state must be printable ASCII (RFC 6749 VSCHAR, %x20-7E).');
  }

  const responseType = single(input, 'response_type');
  if (!responseType) return fail('invalid_request', 'Missing parameter: response_type.');
  if (responseType !== 'code' && responseType !== 'token') {
    return fail('unsupported_response_type', 'response_type must be code or token.');
  }
  if (responseType === 'token' && !client.grants.includes('implicit')) {
    return fail('unauthorized_client', 'This client is not registered for the implicit grant.');
  }
  const pkceProblem = checkPkce(input, client, responseType);
  if (pkceProblem) return fail('invalid_request', pkceProblem);

  if (checkResourceIndicators(input.resource, resources) === 'invalid') {
    return fail('invalid_target', 'The resource is not one this server issues tokens for.');
  }
  if (Array.isArray(input.resource)) return fail('invalid_request', 'Name one resource.');

  const scope = single(input, 'scope');
  if (scope !== undefined) {
    const scopes = parseScope(scope);
    if (scopes.length === 0 || !scopes.every(isKnownScope))
      return fail('invalid_scope', 'The scope is unknown or malformed.');
    if (!sameScope(scope, client.scope)) {
      return fail('invalid_scope', 'The scope must equal the scope registered for this application.');
    }
  }

  const params: AuthorizationParams = { client_id: client.id, response_type: responseType };
  for (const name of [
    'scope',
    'redirect_uri',
    'code_challenge',
    'code_challenge_method',
    'resource',
  ] as const) {
    const value = single(input, name);
    if (value !== undefined) params[name] = value;
  }
  if (state !== undefined) params.state = state;
  return { outcome: 'valid', client, params, redirectUri };
}

/**
 * Builds the redirect back to the client: query parameters for the code flow, or the fragment for the
 * implicit grant (RFC 6749 §4.2.2), where the token never reaches a server in a request line.
 */
export function buildRedirect(
  redirectUri: string,
  params: Record<string, string | undefined>,
  options: { inFragment?: boolean } = {},
): string {
  const url = new URL(redirectUri);
  const defined = Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined);
  if (options.inFragment) {
    url.hash = new URLSearchParams(defined).toString();
  } else {
    for (const [name, value] of defined) url.searchParams.set(name, value);
  }
  return url.toString();
}
