import { generateToken, hashToken, sessionKey, userSessionsKey } from '@pfs/contracts';
import { deleteKeys, getMany, type Redis } from '@pfs/redis';

export interface Session {
  userId: string;
  createdAt: number;
  /** The browser that signed in (its User-Agent, cut short), shown in the list of sessions. */
  userAgent?: string;
}

/** A session as the account page lists it: `id` is the hash of the cookie, never the cookie itself. */
export interface ListedSession extends Session {
  id: string;
}

export interface PendingSignIn {
  userId: string;
  returnTo: string;
}

const PENDING_TTL_SECONDS = 300;

/**
 * Sign-in sessions of the authorization pages, in Redis under the hash of the cookie value, with a set per
 * user of their session hashes (the index behind the list of sessions and "sign out everywhere").
 * A session and its user's index hash to different Redis Cluster slots (a session is found by its cookie
 * alone), so no command spans both: the index learns a session before it exists and forgets it after it is
 * gone, and so always lists at least every live session (`listOf` drops what it lists of dead ones).
 */
export class SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly ttlSeconds: number,
  ) {}

  async create(userId: string, userAgent?: string): Promise<string> {
    const id = generateToken();
    const hash = hashToken(id);
    const session: Session = { userId, createdAt: Date.now(), userAgent: userAgent?.slice(0, 200) };
    await this.redis
      .multi()
      .sadd(userSessionsKey(userId), hash)
      // The index lives as long as the newest session.
      .expire(userSessionsKey(userId), this.ttlSeconds)
      .exec();
    await this.redis.set(sessionKey(hash), JSON.stringify(session), 'EX', this.ttlSeconds);
    return id;
  }

  async find(id: string | undefined): Promise<Session | undefined> {
    if (!id) return undefined;
    const raw = await this.redis.get(sessionKey(hashToken(id)));
    return raw ? (JSON.parse(raw) as Session) : undefined;
  }

  /** The hash a session is listed under (to mark "this browser" in the list). */
  idOf(cookie: string | undefined): string | undefined {
    return cookie ? hashToken(cookie) : undefined;
  }

  async destroy(id: string | undefined): Promise<void> {
    if (!id) return;
    const session = await this.find(id);
    const hash = hashToken(id);
    await this.redis.del(sessionKey(hash));
    if (session) await this.redis.srem(userSessionsKey(session.userId), hash);
  }

  /** The user's live sessions, newest first; index entries of expired sessions are dropped on the way. */
  async listOf(userId: string): Promise<ListedSession[]> {
    const hashes = await this.redis.smembers(userSessionsKey(userId));
    if (!hashes.length) return [];
    const values = await getMany(this.redis, hashes.map(sessionKey));
    const gone = hashes.filter((_hash, index) => values[index] === null);
    if (gone.length) await this.redis.srem(userSessionsKey(userId), ...gone);
    return hashes
      .map((id, index) => ({ id, raw: values[index] }))
      .filter((entry): entry is { id: string; raw: string } => entry.raw !== null)
      .map(({ id, raw }) => ({ id, ...(JSON.parse(raw) as Session) }))
      .filter((session) => session.userId === userId)
      .sort((a, b) => b.createdAt - a.createdAt);
  }

  /** Ends one of the user's sessions by its listed id; another user's id ends nothing. */
  async destroyListed(userId: string, sessionHash: string): Promise<void> {
    if (!(await this.redis.sismember(userSessionsKey(userId), sessionHash))) return;
    await this.redis.del(sessionKey(sessionHash));
    await this.redis.srem(userSessionsKey(userId), sessionHash);
  }

  /** Ends every session of the user but `keepHash` (the browser that asked); returns how many ended. */
  async destroyAllOf(userId: string, keepHash?: string): Promise<number> {
    const hashes = (await this.redis.smembers(userSessionsKey(userId))).filter((hash) => hash !== keepHash);
    if (!hashes.length) return 0;
    await deleteKeys(this.redis, hashes.map(sessionKey));
    await this.redis.srem(userSessionsKey(userId), ...hashes);
    return hashes.length;
  }

  /**
   * A sign-in that passed the password but still owes the second factor: short-lived, and not a session
   * (it opens nothing but the two-factor step).
   */
  async createPending(pending: PendingSignIn): Promise<string> {
    const id = generateToken();
    await this.redis.set(
      `signin-pending:${hashToken(id)}`,
      JSON.stringify(pending),
      'EX',
      PENDING_TTL_SECONDS,
    );
    return id;
  }

  async findPending(id: string | undefined): Promise<PendingSignIn | undefined> {
    if (!id) return undefined;
    const raw = await this.redis.get(`signin-pending:${hashToken(id)}`);
    return raw ? (JSON.parse(raw) as PendingSignIn) : undefined;
  }

  async destroyPending(id: string | undefined): Promise<void> {
    if (id) await this.redis.del(`signin-pending:${hashToken(id)}`);
  }
}
