import { sameScope } from '@pfs/contracts';
import type { Request } from 'express';
import type { RateLimiter } from '../security/rate-limiter';
import {
  basicAuthenticatedClientOf,
  prefetchedCode,
  prefetchedRefreshToken,
  clientLockoutName,
  isClientSecret,
  readBasicCredentials,
} from './client-credentials';
import { SecondFactorDependencies, verifySecondFactor } from '../use-cases/verify-second-factor.use-case';
import { invalidRequest, invalidScope, TokenEndpointError, tooManyRequests } from './token-endpoint-error';
import { clientNetwork } from '../security/client-network';
import type { OAuthClientRecord } from '@pfs/resource-store';
import type { AuthRepositories } from '../auth-repositories';
import { checkResourceIndicators, isPublicClient } from './public-client';
import type { TokenRequestFacts } from './oauth-model';
import { requestTokenHash } from './request-token-hashes';

export const OTP_HEADER = 'X-Service-OTP';

export interface TokenRequestCheckDependencies {
  repos: Pick<AuthRepositories, 'clients' | 'codes' | 'tokens' | 'tokenRequests'>;
  limiter: RateLimiter;
  secondFactor: SecondFactorDependencies;
  maxRequestsPerIp: number;
  maxFailuresPerClient: number;
  /** The resource indicators (RFC 8707) this server issues tokens for. */
  resources: readonly string[];
}

const PARAMETERS = ['grant_type', 'code', 'redirect_uri', 'refresh_token', 'scope', 'code_verifier'];

/** RFC 6749 §3.2: parameters must not be included more than once. */
function assertSingleValuedParameters(body: Record<string, unknown>) {
  const repeated = PARAMETERS.concat('client_id', 'client_secret').find((name) => Array.isArray(body[name]));
  if (repeated) throw invalidRequest(`The parameter ${repeated} is repeated.`);
}

/** RFC 6749 §2.3: a client must not use more than one authentication method in a request. */
function assertOneClientAuthentication(req: Request, body: Record<string, unknown>) {
  const hasBasic = /^basic /i.test(req.get('authorization') ?? '');
  if (hasBasic && (body.client_secret !== undefined || body.client_id !== undefined)) {
    throw invalidRequest('Send client credentials once: in the Basic header, not also in the body.');
  }
}

/** The client's credentials as the library will read them: Basic first, else the body (RFC 6749 §2.3.1). */
function readClientCredentials(req: Request, body: Record<string, unknown>) {
  const basic = readBasicCredentials(req);
  if (basic) return basic;
  if (typeof body.client_id !== 'string') return undefined;
  return {
    id: body.client_id,
    secret: typeof body.client_secret === 'string' ? body.client_secret : undefined,
  };
}

const invalidClient = (description: string) =>
  new TokenEndpointError(401, 'invalid_client', description, { 'WWW-Authenticate': 'Basic realm="pfs"' });

/**
 * The client our checks apply to, or undefined to let the library answer invalid_client / invalid_request.
 * A request without a secret (PKCE) is only for public clients (--implicit, or registered dynamically): the library
 * would accept it from any client, so confidential clients are refused here.
 */
async function findClient(deps: TokenRequestCheckDependencies, req: Request, body: Record<string, unknown>) {
  // Basic credentials already verified on this request (the header now holds their plain reading).
  const authenticated = basicAuthenticatedClientOf(req);
  if (authenticated) return authenticated;
  const credentials = readClientCredentials(req, body);
  if (!credentials) return undefined;
  const client = await deps.repos.clients.findById(credentials.id);
  if (!client) return undefined;
  if (credentials.secret === undefined || credentials.secret === '') {
    if (!isPublicClient(client)) throw invalidClient('This client must authenticate with its secret.');
    return client;
  }
  return isClientSecret(client, credentials.secret) ? client : undefined;
}

/**
 * The spec: a refresh's scope, when sent, must equal the scope returned at the code exchange. The token's state
 * (read with the client, or here) goes into `facts` for the library's getRefreshToken.
 */
async function assertRefreshScopeUnchanged(
  deps: TokenRequestCheckDependencies,
  client: OAuthClientRecord,
  req: Request,
  body: Record<string, unknown>,
  facts: TokenRequestFacts,
) {
  if (typeof body.refresh_token !== 'string') return;
  const hash = requestTokenHash(req, body.refresh_token);
  const prefetched = prefetchedRefreshToken(req, hash);
  if (prefetched) facts.refreshToken = { hash, state: prefetched.state };
  if (typeof body.scope !== 'string') return;
  const token = prefetched ? prefetched.state : await deps.repos.tokens.findByHash(hash, 'refresh');
  if (token && token.clientId === client.id && !sameScope(body.scope, token.scope)) {
    throw invalidScope('The scope must equal the scope returned at the code exchange.');
  }
}

/**
 * The spec's two-factor step: checked before the library runs, so asking for the code does not use it up. The
 * code's exchange state it reads (with the user's two-factor state) is kept in `facts` for the library's hooks.
 */
async function assertSecondFactor(
  deps: TokenRequestCheckDependencies,
  client: OAuthClientRecord,
  req: Request,
  body: Record<string, unknown>,
  facts: TokenRequestFacts,
) {
  if (typeof body.code !== 'string') return;
  const hash = requestTokenHash(req, body.code);
  const state = (prefetchedCode(req, hash) ?? { state: await deps.repos.codes.findForExchange(hash) }).state;
  facts.code = { hash, state };
  const code = state?.code;
  if (!code || code.usedAt || code.clientId !== client.id || code.expiresAt < new Date()) return;
  const result = await verifySecondFactor(
    deps.secondFactor,
    code.userId,
    req.get(OTP_HEADER),
    'token',
    state,
  );
  const otpRequired = { [OTP_HEADER]: 'required' };
  if (result.outcome === 'missing') {
    throw new TokenEndpointError(401, 'otp_required', 'Two-factor code required.', otpRequired);
  }
  if (result.outcome === 'invalid') {
    throw new TokenEndpointError(401, 'invalid_otp', 'The two-factor code is wrong.', otpRequired);
  }
  if (result.outcome === 'throttled') throw tooManyRequests(result.retryAfterSeconds);
}

/**
 * Our steps around the library's token handler, in order. Returns the authenticated client id (for
 * counting its failures; undefined when client authentication is left to the library), and whether it is
 * a public client without a secret (registered dynamically), whose refresh needs no client authentication.
 * What the steps read (the authenticated client, the code's state) goes into `facts`, for the library's hooks.
 */
export async function checkTokenRequest(
  deps: TokenRequestCheckDependencies,
  req: Request,
  facts: TokenRequestFacts = {},
): Promise<{ clientId?: string; secretlessPublicClient: boolean }> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const rawClientId = readClientCredentials(req, body)?.id;
  const clientId = rawClientId === undefined ? undefined : clientLockoutName(rawClientId);
  // The per-network count and the client's failure count in one Redis round trip; per network is judged first.
  const perIp = { bucket: `token-ip:${clientNetwork(req.ip)}`, limit: deps.maxRequestsPerIp };
  const perClient = clientId && { bucket: `token-client:${clientId}`, limit: deps.maxFailuresPerClient };
  const limits = perClient
    ? await deps.limiter.hitAndCheck(perIp, perClient)
    : { counted: await deps.limiter.hit(perIp.bucket, perIp.limit), read: undefined };
  if (limits.counted.blocked) throw tooManyRequests(limits.counted.retryAfterSeconds);
  assertSingleValuedParameters(body);
  assertOneClientAuthentication(req, body);
  if (checkResourceIndicators(body.resource, deps.resources) === 'invalid') {
    throw new TokenEndpointError(
      400,
      'invalid_target',
      'The resource is not one this server issues tokens for.',
    );
  }
  if (perClient && limits.read?.blocked) {
    deps.limiter.refused(perClient.bucket);
    throw tooManyRequests(limits.read.retryAfterSeconds);
  }
  const client = await findClient(deps, req, body);
  if (!client) return { clientId, secretlessPublicClient: false };
  facts.client = client;
  if (body.grant_type === 'refresh_token') await assertRefreshScopeUnchanged(deps, client, req, body, facts);
  if (body.grant_type === 'authorization_code') {
    facts.exchange = { codeVerifier: body.code_verifier, redirectUri: body.redirect_uri };
    await assertSecondFactor(deps, client, req, body, facts);
  }
  const secret = readClientCredentials(req, body)?.secret;
  return {
    clientId: client.id,
    // A dynamically registered client has no secret: its refresh is authenticated by the rotated token alone.
    secretlessPublicClient:
      client.tokenEndpointAuthMethod === 'none' && (secret === undefined || secret === ''),
  };
}
