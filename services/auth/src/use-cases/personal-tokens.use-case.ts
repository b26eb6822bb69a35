import { formatScope, generateToken, hashToken, personalTokenUsedKey, SCOPE_AREAS } from '@pfs/contracts';
import { inputError, notFound } from '@pfs/errors';
import { getMany, type Redis } from '@pfs/redis';
import type { TokenIntrospectionStore } from '../token-introspection.store';
import type { AuthRepositories } from '../auth-repositories';

export interface PersonalTokenDependencies {
  repos: Pick<AuthRepositories, 'tokens'>;
  introspection: TokenIntrospectionStore;
  redis: Redis;
}

export interface PersonalTokenSummary {
  id: string;
  name: string;
  createdAt: Date;
  /** From the resource API's last-use mark in Redis; null when never used. */
  lastUsedAt: Date | null;
}

/** A personal token acts for its owner in every area, as Toshl's do. */
export const PERSONAL_TOKEN_SCOPE = formatScope(SCOPE_AREAS.map((area) => `${area}:rw`));
const MAX_NAME_LENGTH = 100;
/** A recognisable prefix lets secret scanners find leaked tokens. */
const TOKEN_PREFIX = 'pfs_pt_';

/** Creates a named personal token; the token is returned this once and stored only as its hash. */
export async function createPersonalToken(
  deps: PersonalTokenDependencies,
  options: { userId: string; name: unknown },
): Promise<{ id: string; name: string; token: string }> {
  const name = typeof options.name === 'string' ? options.name.trim() : '';
  if (!name) throw inputError([{ field: 'name', error: 'is required' }]);
  if (name.length > MAX_NAME_LENGTH) {
    throw inputError([{ field: 'name', error: `must be at most ${MAX_NAME_LENGTH} characters` }]);
  }
  const token = `${TOKEN_PREFIX}${generateToken()}`;
  const tokenHash = hashToken(token);
  const [id] = await deps.repos.tokens.create([
    {
      tokenHash,
      kind: 'personal',
      userId: options.userId,
      clientId: null,
      grantId: null,
      authorizationCodeHash: null,
      name,
      scope: PERSONAL_TOKEN_SCOPE,
      expiresAt: null,
    },
  ]);
  await deps.introspection.putPersonalToken(tokenHash, {
    userId: options.userId,
    tokenId: id,
    scope: PERSONAL_TOKEN_SCOPE,
  });
  return { id, name, token };
}

export async function listPersonalTokens(
  deps: PersonalTokenDependencies,
  userId: string,
): Promise<PersonalTokenSummary[]> {
  const records = await deps.repos.tokens.listPersonal(userId);
  if (!records.length) return [];
  const marks = await getMany(
    deps.redis,
    records.map((record) => personalTokenUsedKey(record.id)),
  );
  return records.map((record, index) => {
    const mark = Number(marks[index]);
    return {
      id: record.id,
      name: record.name ?? '',
      createdAt: record.createdAt,
      lastUsedAt: Number.isFinite(mark) && mark > 0 ? new Date(mark) : record.lastUsedAt,
    };
  });
}

/** Revokes one of the user's personal tokens; the API refuses it at once. Another user's id is not found. */
export async function revokePersonalToken(
  deps: PersonalTokenDependencies,
  options: { userId: string; tokenId: string },
): Promise<void> {
  const tokenHash = await deps.repos.tokens.revokePersonal(options.userId, options.tokenId);
  if (!tokenHash) throw notFound('Personal token', options.tokenId);
  await deps.introspection.remove(tokenHash);
  await deps.redis.del(personalTokenUsedKey(options.tokenId));
}
