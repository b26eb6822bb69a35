import { hashToken } from '@pfs/contracts';
import type { Request, RequestHandler } from 'express';
import { requestTokenHash } from './request-token-hashes';
import { timingSafeEqual } from 'node:crypto';
import type {
  ClientRepository,
  OAuthClientRecord,
  TokenRequestLookup,
  TokenRequestRepository,
  TokenRequestState,
} from '@pfs/resource-store';

export interface ClientCredentials {
  id: string;
  secret: string;
}

/** `Authorization: Basic base64(client_id:client_secret)` as sent, without any decoding, or undefined. */
export function readBasicCredentials(req: Request): ClientCredentials | undefined {
  const match = /^basic ([A-Za-z0-9+/=]+)$/i.exec(req.get('authorization') ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator <= 0) return undefined;
  return { id: decoded.slice(0, separator), secret: decoded.slice(separator + 1) };
}

/**
 * application/x-www-form-urlencoded decoding of one value (`+` is a space), or undefined when malformed or
 * when it decodes to a NUL, which no id or secret holds (and Postgres refuses in a query).
 */
function formDecode(value: string): string | undefined {
  try {
    const decoded = decodeURIComponent(value.replace(/\+/g, ' '));
    return decoded.includes('\u0000') ? undefined : decoded;
  } catch {
    return undefined;
  }
}

/**
 * The name a client's failed attempts are counted under: its form-decoded id, so that `my%2Dapp`, `%6Dy-app` and
 * `my-app` (all of which reach the same client) share one lockout bucket instead of each getting a fresh one.
 */
export function clientLockoutName(id: string): string {
  return formDecode(id) ?? id;
}

/**
 * Compares the secret's hash with the stored one in constant time. `hashOf`: the request's own memo
 * (`requestTokenHash`), so the Basic check and the library's getClient hash the same secret once.
 */
export function isClientSecret(
  client: OAuthClientRecord,
  secret: string,
  hashOf: (value: string) => string = hashToken,
): boolean {
  const given = Buffer.from(hashOf(secret), 'utf8');
  const stored = Buffer.from(client.secretHash, 'utf8');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** Reads a client by id. */
type ClientLookup = (id: string) => Promise<OAuthClientRecord | undefined>;

async function authenticates(find: ClientLookup, credentials: ClientCredentials, req: Request) {
  const client = await find(credentials.id);
  const hashOf = (secret: string) => requestTokenHash(req, secret);
  return client && isClientSecret(client, credentials.secret, hashOf) ? client : undefined;
}

/**
 * RFC 6749 §2.3.1: the client form-urlencodes its id and secret before Basic encoding them (oauth4webapi,
 * openid-client, Spring and Authlib always do: `-` → `%2D`, `_` → `%5F`, space → `+`), while many older
 * clients send them plain. Both readings are tried against the stored secret; a secret only matches its own
 * hash, so a plain secret that literally holds `%` or `+` still works and the two can never be confused.
 * The matching reading (the plain one first), or undefined.
 */
export async function authenticateBasicCredentials(
  clients: ClientRepository | ClientLookup,
  req: Request,
): Promise<{ client: OAuthClientRecord; credentials: ClientCredentials; formEncoded: boolean } | undefined> {
  const find = typeof clients === 'function' ? clients : (id: string) => clients.findById(id);
  const plain = readBasicCredentials(req);
  if (!plain) return undefined;
  const decodedId = formDecode(plain.id);
  const decodedSecret = formDecode(plain.secret);
  const readings = [plain];
  if (decodedId !== undefined && decodedSecret !== undefined) {
    const decoded = { id: decodedId, secret: decodedSecret };
    if (decoded.id !== plain.id || decoded.secret !== plain.secret) readings.push(decoded);
  }
  for (const credentials of readings) {
    const client = await authenticates(find, credentials, req);
    if (client) return { client, credentials, formEncoded: credentials !== plain };
  }
  return undefined;
}

/** The client named by valid Basic credentials (form-encoded or plain), or undefined. */
export async function findBasicAuthenticatedClient(
  clients: ClientRepository,
  req: Request,
): Promise<OAuthClientRecord | undefined> {
  return (await authenticateBasicCredentials(clients, req))?.client;
}

/** What `decodeFormEncodedBasic` read for a request whose Basic credentials it verified, and what it asked. */
interface BasicAuthenticated {
  lookup: TokenRequestLookup;
  state: TokenRequestState;
}

const basicAuthenticated = new WeakMap<Request, BasicAuthenticated>();

/** The client `decodeFormEncodedBasic` authenticated for this request, if it did: the same row, not read twice. */
export const basicAuthenticatedClientOf = (req: Request) => basicAuthenticated.get(req)?.state.client;

/**
 * The state of the code with this hash as read with the authenticated client (`state` undefined: no such code),
 * or undefined when that read did not ask for it.
 */
export function prefetchedCode(req: Request, codeHash: string) {
  const read = basicAuthenticated.get(req);
  return read && read.lookup.codeHash === codeHash ? { state: read.state.code } : undefined;
}

/** As `prefetchedCode`, for the refresh token with this hash. */
export function prefetchedRefreshToken(req: Request, tokenHash: string) {
  const read = basicAuthenticated.get(req);
  return read && read.lookup.refreshTokenHash === tokenHash ? { state: read.state.refreshToken } : undefined;
}

/** The code or refresh token a token request sends, by hash: read with its client, in one statement. */
function lookupOf(req: Request, body: Record<string, unknown> | undefined): TokenRequestLookup {
  if (body?.grant_type === 'authorization_code' && typeof body.code === 'string') {
    return { codeHash: requestTokenHash(req, body.code) };
  }
  if (body?.grant_type === 'refresh_token' && typeof body.refresh_token === 'string') {
    return { refreshTokenHash: requestTokenHash(req, body.refresh_token) };
  }
  return {};
}

/**
 * Rewrites form-encoded Basic credentials to their plain reading when (and only when) that is the reading
 * that authenticates, so our checks and the OAuth library, which reads the header itself and does not
 * decode, see the credentials the client meant. Anything else passes through untouched. The client is read
 * with the state of the code or refresh token the (already parsed) form sends, kept for the token checks and
 * the library's hooks (one round trip for what took two or three).
 */
export function decodeFormEncodedBasic(requests: TokenRequestRepository): RequestHandler {
  return async (req, _res, next) => {
    const lookup = lookupOf(req, req.body as Record<string, unknown> | undefined);
    let state: TokenRequestState | undefined;
    const find = async (id: string) => {
      state = await requests.read(id, lookup);
      return state?.client;
    };
    // A store failure here is left to the route, which meets the same failure and answers it as it always has.
    const matched = await authenticateBasicCredentials(find, req).catch(() => undefined);
    // The last read is the matching reading's: the readings are tried in turn until one authenticates.
    if (matched && state) basicAuthenticated.set(req, { lookup, state });
    if (matched?.formEncoded) {
      const { id, secret } = matched.credentials;
      req.headers.authorization = `Basic ${Buffer.from(`${id}:${secret}`, 'utf8').toString('base64')}`;
    }
    next();
  };
}
