/**
 * A code exchange's tokens (`TokenRepository.createForCode`): the access token and, when the client may refresh,
 * the refresh token; one user, client, grant, code and scope; the refresh token does not expire.
 */
export interface CodeExchangeTokens {
  userId: string;
  clientId: string;
  grantId: string;
  scope: string;
  authorizationCodeHash: string;
  accessHash: string;
  accessExpiresAt: Date | null;
  refreshHash: string | null;
}

/**
 * Marks the code `$1` used if it is not yet and only then inserts the tokens; answers one row when it did, none
 * when the code was used already (a concurrent exchange's update holds the row lock first and wins). The tokens
 * as scalar parameters (the shared columns once; a null refresh hash inserts no refresh token) and no ids
 * returned (nothing reads them): the rotation's shape (`ROTATE_PAIR`). Measured in-process (16 in flight, named
 * statements, alternating blocks of 1,500, medians of 7): 64.8 µs of the client's CPU an exchange as `unnest`
 * arrays with `RETURNING id`, 41.7 as this statement (docs/bench.md, token grants round 2).
 */
export const CREATE_FOR_CODE = `WITH used AS (
         UPDATE oauth_authorization_codes SET used_at = $2 WHERE code_hash = $1 AND used_at IS NULL RETURNING 1),
       issued AS (
         INSERT INTO oauth_tokens
           (token_hash, kind, user_id, client_id, grant_id, authorization_code_hash, name, scope, expires_at)
         SELECT issued.token_hash, issued.kind, $5::bigint, $6, $7::bigint, $8, NULL, $9, issued.expires_at
         FROM (VALUES ($3::text, 'access', $10::timestamptz), ($4::text, 'refresh', NULL::timestamptz))
           AS issued (token_hash, kind, expires_at)
         WHERE issued.token_hash IS NOT NULL AND EXISTS (SELECT FROM used))
       SELECT 1 AS used FROM used`;

/** `CREATE_FOR_CODE`'s parameters. */
export const createForCodeValues = (codeHash: string, now: Date, tokens: CodeExchangeTokens): unknown[] => [
  codeHash,
  now,
  tokens.accessHash,
  tokens.refreshHash,
  tokens.userId,
  tokens.clientId,
  tokens.grantId,
  tokens.authorizationCodeHash,
  tokens.scope,
  tokens.accessExpiresAt,
];
