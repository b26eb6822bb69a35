import { LRUCache } from 'lru-cache';
import { userProfileGenerationKey, userProfileKey } from '@pfs/contracts';
import type { Redis } from '@pfs/redis';
import type { PreparedRepresentation } from '@pfs/resource-api';

/**
 * The `/me` representation cached in Redis, so an authenticated `GET /me` is served from the same round
 * trip as authentication and rate limiting (RequestGate reads it beside the token record) instead of a
 * second round trip to Postgres.
 *
 * Keys (@pfs/contracts, under the deployment prefix): `user-profile:<userId>` holds the prepared response (ETag,
 * Last-Modified, JSON body); `user-profile:<userId>:gen` is the user's write generation. The profile key is
 * built inside the gate script from the token record's `sub`, so a token can only ever read its own user's
 * profile.
 *
 * Correctness rule: every write of a `users` row calls `invalidate(userId)` (or `invalidateUserProfile`)
 * after it commits. Invalidation bumps the generation and deletes the entry; a fill is stored only if the
 * generation is still the one read before the Postgres read, so a reader that read the old row can never
 * put it back after a write (the classic cache-aside race). The TTL bounds the damage of a writer that
 * dies between its commit and its invalidation.
 */
const PROFILE_TTL_MS = 10 * 60_000;
/** Far longer than any request that read the generation can take to fill. */
const GENERATION_TTL_MS = 24 * 3_600_000;

/** A cache miss: the generation to hand back to `fill`. */
export interface ProfileMiss {
  generation: string;
}

const FILL_SCRIPT = `
local generation = redis.call('GET', KEYS[2]) or '0'
if generation ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
`;

/** Stored as `<etag>\n<last-modified ms or empty>\n<body>`: two indexOf to read, no JSON parse of a JSON body. */
export function encodeRepresentation(prepared: PreparedRepresentation): string {
  const modified = prepared.lastModified ? String(prepared.lastModified.getTime()) : '';
  return `${prepared.etag}\n${modified}\n${prepared.body}`;
}

/** Held profiles decoded, one per user served lately (the least recently used go first). */
const decoded = new LRUCache<string, PreparedRepresentation>({ max: 1_024 });

/**
 * `decodeRepresentation` of a held cached value, with its body encoded once: the gate hands the same string
 * to every `GET /me` of a user until it changes, so its slices, date and bytes are made once, not per
 * request (docs/bench.md, session 8). Keyed by the value itself, so a changed profile is a new entry.
 */
export function decodeHeldRepresentation(raw: string): PreparedRepresentation | undefined {
  let prepared = decoded.get(raw);
  if (!prepared) {
    const fresh = decodeRepresentation(raw);
    if (!fresh) return undefined;
    prepared = { ...fresh, bytes: Buffer.from(fresh.body) };
    decoded.set(raw, prepared);
  }
  return prepared;
}

export function decodeRepresentation(raw: string): PreparedRepresentation | undefined {
  const first = raw.indexOf('\n');
  const second = first === -1 ? -1 : raw.indexOf('\n', first + 1);
  if (second === -1) return undefined;
  const modified = raw.slice(first + 1, second);
  return {
    etag: raw.slice(0, first),
    lastModified: modified ? new Date(Number(modified)) : undefined,
    body: raw.slice(second + 1),
  };
}

/**
 * Invalidates the cached `/me` of `userId`. Call it after every committed write of the user's `users` row
 * (profile, main currency, anything `/me` shows), from any service that shares the API's Redis and prefix.
 */
export async function invalidateUserProfile(redis: Redis, userId: string): Promise<void> {
  const generation = userProfileGenerationKey(userId);
  await redis
    .multi()
    .incr(generation)
    .pexpire(generation, GENERATION_TTL_MS)
    .del(userProfileKey(userId))
    .exec();
}

export class UserProfileCache {
  constructor(private readonly redis: Redis) {
    if (!('pfsProfileFill' in redis)) {
      redis.defineCommand('pfsProfileFill', { numberOfKeys: 2, lua: FILL_SCRIPT });
    }
  }

  /** Stores `prepared` unless the user was written since `miss.generation` was read. True when stored. */
  async fill(userId: string, miss: ProfileMiss, prepared: PreparedRepresentation): Promise<boolean> {
    const stored = await (
      this.redis as unknown as { pfsProfileFill: (...args: unknown[]) => Promise<number> }
    ).pfsProfileFill(
      userProfileKey(userId),
      userProfileGenerationKey(userId),
      miss.generation,
      encodeRepresentation(prepared),
      PROFILE_TTL_MS,
    );
    return stored === 1;
  }

  /** See `invalidateUserProfile`. */
  invalidate(userId: string): Promise<void> {
    return invalidateUserProfile(this.redis, userId);
  }
}
