import { DataSource } from 'typeorm';
import { preparedQuery } from '../../prepared-query';
import {
  CODE_EXCHANGE_FROM,
  codeExchangeColumns,
  CodeExchangeRow,
  CodeExchangeState,
  codeExchangeStateOf,
} from './authorization-code.repository';
import type { OAuthClientRecord } from './client.repository';
import {
  REFRESH_STATE_FROM,
  refreshStateColumns,
  RefreshTokenRow,
  RefreshTokenState,
  refreshStateOf,
} from './token.repository';

/** What a token request names besides its client: the code or the refresh token it sends (never both), by hash. */
export type TokenRequestLookup =
  | { codeHash: string; refreshTokenHash?: undefined }
  | { refreshTokenHash: string; codeHash?: undefined }
  | { codeHash?: undefined; refreshTokenHash?: undefined };

/** A client with what its token request names (absent: not asked, or no such code / refresh token). */
export interface TokenRequestState {
  client: OAuthClientRecord;
  code?: CodeExchangeState;
  refreshToken?: RefreshTokenState;
}

interface ClientRow {
  o_id: string;
  o_name: string;
  o_secret_hash: string;
  o_redirect_uri: string;
  o_redirect_uris: string[];
  o_scope: string;
  o_grants: string[];
  o_token_endpoint_auth_method: string;
}

const CLIENT_COLUMNS = `o.id AS o_id, o.name AS o_name, o.secret_hash AS o_secret_hash,
  o.redirect_uri AS o_redirect_uri, o.redirect_uris AS o_redirect_uris, o.scope AS o_scope, o.grants AS o_grants,
  o.token_endpoint_auth_method AS o_token_endpoint_auth_method`;

/** The read's `timestamptz` columns (by name without prefix), which its JSON carries as ISO 8601 text. */
const TIMESTAMPS = new Set([
  'expires_at',
  'used_at',
  'otp_enabled_at',
  'revoked_at',
  'rotated_at',
  'created_at',
  'last_used_at',
]);

/**
 * The columns of `row` named `<prefix>…`, without the prefix; timestamps as `Date`s (`Date` parses the JSON's
 * `2026-11-25T00:30:01.123456+00:00` to the millisecond, truncating as pg's own parser does).
 */
function unprefixed<T>(row: Record<string, unknown>, prefix: string): T {
  const columns: Record<string, unknown> = {};
  for (const key of Object.keys(row)) {
    if (!key.startsWith(prefix)) continue;
    const name = key.slice(prefix.length);
    const value = row[key];
    columns[name] = TIMESTAMPS.has(name) && typeof value === 'string' ? new Date(value) : value;
  }
  return columns as T;
}

/** As ClientRepository's record of the same row. */
const clientOf = (row: ClientRow): OAuthClientRecord => ({
  id: row.o_id,
  name: row.o_name,
  secretHash: row.o_secret_hash,
  redirectUri: row.o_redirect_uri,
  redirectUris: row.o_redirect_uris.length > 0 ? row.o_redirect_uris : [row.o_redirect_uri],
  scope: row.o_scope,
  grants: row.o_grants,
  tokenEndpointAuthMethod: row.o_token_endpoint_auth_method === 'none' ? 'none' : 'client_secret_basic',
});

/**
 * The row as one JSON value: pg then parses one column a read (a `JSON.parse`) instead of describing and converting
 * 23-30 (a RowDescription read, a parser set up and run per column, on every execution). Measured in-process (16
 * in flight, named statements, alternating blocks of 2,000, medians of 9): the refresh's read cost the client 32.9
 * µs of CPU as columns and 22.0 µs as JSON (docs/bench.md, "Token grants … (session 8)").
 */
const asJson = (select: string) => `SELECT row_to_json(s) AS state FROM (${select}) s`;

/**
 * The read's three statement texts (client alone, with a code, with a refresh token), built once: a named
 * prepared statement each, parsed and planned once per connection; built per call they cost a 2 kB string and
 * its hashing for the statement-name lookup on every grant. A token request names a code or a refresh token,
 * never both (the grant type decides which).
 */
const CLIENT_ALONE = asJson(`SELECT ${CLIENT_COLUMNS} FROM oauth_clients o WHERE o.id = $1`);
const WITH_CODE = asJson(`SELECT ${CLIENT_COLUMNS}, k.* FROM oauth_clients o
  LEFT JOIN LATERAL (SELECT ${codeExchangeColumns('k_')} FROM ${CODE_EXCHANGE_FROM}
    WHERE c.code_hash = $2) k ON true WHERE o.id = $1`);
const WITH_REFRESH_TOKEN = asJson(`SELECT ${CLIENT_COLUMNS}, r.* FROM oauth_clients o
  LEFT JOIN LATERAL (SELECT ${refreshStateColumns('r_')} FROM ${REFRESH_STATE_FROM}
    WHERE t.token_hash = $2 AND t.kind = 'refresh') r ON true WHERE o.id = $1`);

/**
 * The token endpoint's first read: the client that authenticates and, in the same statement (one round trip
 * instead of two or three), the state of the code or refresh token the request sends.
 */
export class TokenRequestRepository {
  constructor(private readonly source: DataSource) {}

  async read(clientId: string, lookup: TokenRequestLookup): Promise<TokenRequestState | undefined> {
    const [text, parameters] =
      lookup.codeHash !== undefined
        ? [WITH_CODE, [clientId, lookup.codeHash]]
        : lookup.refreshTokenHash !== undefined
          ? [WITH_REFRESH_TOKEN, [clientId, lookup.refreshTokenHash]]
          : [CLIENT_ALONE, [clientId]];
    const rows = await preparedQuery<{ state: ClientRow & Record<string, unknown> }>(
      this.source,
      text,
      parameters,
    );
    const row = rows[0]?.state;
    if (!row) return undefined;
    return {
      client: clientOf(row),
      code: row.k_code_hash == null ? undefined : codeExchangeStateOf(unprefixed<CodeExchangeRow>(row, 'k_')),
      refreshToken: row.r_id == null ? undefined : refreshStateOf(unprefixed<RefreshTokenRow>(row, 'r_')),
    };
  }
}
