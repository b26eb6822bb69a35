import { z } from 'zod';

/**
 * What the auth service writes to Redis for each live access token (and personal token), and what the
 * resource API reads to authenticate a request: the introspection record. The key is
 * `<REDIS_KEY_PREFIX>token:<sha256(token)>`; its Redis TTL is the token's remaining lifetime.
 */
export const AccessTokenRecordSchema = z.object({
  /** The user the token acts for. */
  sub: z.string(),
  /** The OAuth client, absent for personal tokens. */
  client_id: z.string().optional(),
  /** Space-separated granted scopes. */
  scope: z.string(),
  /** The grant (consent) the token belongs to; revoking the grant removes every record of it. */
  grant_id: z.string().optional(),
  kind: z.enum(['access', 'personal']),
  /** Unix seconds; absent for personal tokens, which live until revoked. */
  exp: z.number().int().optional(),
  /** Personal token id, for last-used bookkeeping. */
  token_id: z.string().optional(),
});

export type AccessTokenRecord = z.infer<typeof AccessTokenRecordSchema>;

/** What a live token's row says, whichever service reads it (auth when issuing or restoring, the API on a miss). */
export type LiveTokenFacts =
  | { kind: 'personal'; userId: string; scope: string; tokenId: string }
  | { kind: 'access'; userId: string; scope: string; clientId?: string; grantId?: string; expiresAt: Date };

/** The introspection record of a live token: the one place its shape is built. */
export function introspectionRecordOf(facts: LiveTokenFacts): AccessTokenRecord {
  if (facts.kind === 'personal') {
    return { sub: facts.userId, scope: facts.scope, kind: 'personal', token_id: facts.tokenId };
  }
  return {
    sub: facts.userId,
    client_id: facts.clientId,
    scope: facts.scope,
    grant_id: facts.grantId,
    kind: 'access',
    exp: Math.floor(facts.expiresAt.getTime() / 1000),
  };
}

export const accessTokenKey = (tokenHash: string) => `token:${tokenHash}`;
/** The set of token hashes of one grant, so revocation can find them all. */
export const grantTokensKey = (grantId: string) => `grant:${grantId}:tokens`;
/**
 * Last use of a personal token: the resource API SETs it to the current time in Unix milliseconds when a
 * personal token (record `token_id`) authenticates a request; the auth service reads it to list tokens.
 */
export const personalTokenUsedKey = (tokenId: string) => `personal-token:${tokenId}:used`;

export function parseAccessTokenRecord(raw: string | null): AccessTokenRecord | undefined {
  if (!raw) return undefined;
  try {
    const parsed = AccessTokenRecordSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
