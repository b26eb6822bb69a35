import {
  AccessTokenRecord,
  accessTokenKey,
  hashToken,
  parseAccessTokenRecord,
  USER_PROFILE_KEY_PREFIX,
  userProfileGenerationKey,
  userProfileKey,
} from '@pfs/contracts';
import { isCluster, type Redis } from '@pfs/redis';
import type { ProfileMiss } from '../modules/me/user-profile-cache';
import { CLUSTER_GATE, SINGLE_SERVER_GATE } from './gate-scripts';

/**
 * Authentication and rate limiting in one Redis round trip (two on a Redis Cluster): the token's
 * introspection record, the rate-limit subject derived from it (user + application; the client IP when
 * unauthenticated) and its sliding-window counter (gate-scripts.ts). When asked, it also returns the token's
 * user's cached `/me` representation, or on a miss that user's write generation (UserProfileCache): the
 * profile key comes from the record's own `sub`, never from the request, so a token reads only its own
 * user's profile.
 */
export interface GateOptions {
  /** REDIS_KEY_PREFIX: the script builds its own keys under it. */
  keyPrefix: string;
  limit: number;
  windowSeconds: number;
}

export interface GateResult {
  /** The token's record when it is valid (not expired). */
  record?: AccessTokenRecord;
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window has moved enough to allow a request again. */
  retryAfterSeconds: number;
  /** The bucket counted, so a 304 can be refunded. */
  bucketKey: string;
  /** Asked with `profile`, for a valid token: the user's cached `/me` (hit) or the generation to fill with (miss). */
  profile?: { cached: string } | ProfileMiss;
}

export interface GateCheckOptions {
  /** Count the request against the limit (the rate-limit status endpoint does not). */
  count: boolean;
  /** Also read the token's user's cached `/me` representation in the same round trip. */
  profile?: boolean;
}

type GateReply = [string | null, number, number, number, string, string | null, string | null];
type ClusterGateReply = [number, number, number, string | null, string | null];
type GateCommands = {
  pfsGate(...args: unknown[]): Promise<GateReply>;
  pfsClusterGate2(...args: unknown[]): Promise<ClusterGateReply>;
  pfsClusterGate4(...args: unknown[]): Promise<ClusterGateReply>;
};

/** The rate-limit subject of a raw record, as the single-server script derives it. */
function subjectOf(raw: string | null): { userId: string; app: string } | undefined {
  if (!raw) return undefined;
  try {
    const decoded = JSON.parse(raw) as { sub?: unknown; client_id?: unknown };
    if (!decoded || typeof decoded !== 'object' || decoded.sub === undefined || decoded.sub === null)
      return undefined;
    return { userId: String(decoded.sub), app: String(decoded.client_id ?? 'personal') };
  } catch {
    return undefined;
  }
}

export class RequestGate {
  constructor(
    private readonly redis: Redis,
    readonly options: GateOptions,
  ) {
    if (!('pfsGate' in redis)) {
      redis.defineCommand('pfsGate', { numberOfKeys: 1, lua: SINGLE_SERVER_GATE });
      // Two commands with a fixed key count (two keys, or four with the profile), not one taking its count as
      // its first argument: ioredis's auto pipelining on a cluster routes a call by its first argument.
      redis.defineCommand('pfsClusterGate2', { numberOfKeys: 2, lua: CLUSTER_GATE });
      redis.defineCommand('pfsClusterGate4', { numberOfKeys: 4, lua: CLUSTER_GATE });
    }
  }

  private get commands(): GateCommands {
    return this.redis as unknown as GateCommands;
  }

  /** Authenticates `token` (may be undefined) and counts the request unless `options.count` is false. */
  async check(token: string | undefined, clientIp: string, options: GateCheckOptions): Promise<GateResult> {
    const key = accessTokenKey(token ? hashToken(token) : 'none');
    const now = Date.now();
    const reply = isCluster(this.redis)
      ? await this.checkOnCluster(token ? key : undefined, clientIp, now, options)
      : await this.commands.pfsGate(
          key,
          this.options.keyPrefix,
          now,
          this.options.windowSeconds * 1000,
          this.options.limit,
          clientIp,
          options.count ? '1' : '0',
          options.profile ? USER_PROFILE_KEY_PREFIX : '',
        );
    const [raw, allowed, used, waitMs, bucketKey, cached, generation] = reply;
    let record = token ? parseAccessTokenRecord(raw) : undefined;
    if (record?.exp !== undefined && record.exp * 1000 <= Date.now()) record = undefined;
    const profile = !record
      ? undefined
      : typeof cached === 'string'
        ? { cached }
        : typeof generation === 'string'
          ? { generation }
          : undefined;
    return {
      profile,
      record,
      allowed: allowed === 1,
      limit: this.options.limit,
      remaining: Math.max(0, this.options.limit - used),
      retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
      bucketKey,
    };
  }

  /**
   * On a Redis Cluster the token's record and the subject's keys live in different slots: the record is
   * read first, then the limit (and profile) script runs on the subject's slot with every key declared.
   */
  private async checkOnCluster(
    key: string | undefined,
    clientIp: string,
    now: number,
    options: GateCheckOptions,
  ): Promise<GateReply> {
    const raw = key ? await this.redis.get(key) : null;
    const subject = subjectOf(raw);
    const windowMs = this.options.windowSeconds * 1000;
    const bucket = Math.floor(now / windowMs);
    const base = subject ? `rl:{${subject.userId}}:${subject.app}:` : `rl:{ip:${clientIp}}:`;
    const keys = [`${base}${bucket}`, `${base}${bucket - 1}`];
    if (subject && options.profile)
      keys.push(userProfileKey(subject.userId), userProfileGenerationKey(subject.userId));
    const gate = keys.length === 4 ? this.commands.pfsClusterGate4 : this.commands.pfsClusterGate2;
    const [allowed, used, waitMs, cached, generation] = await gate.call(
      this.redis,
      ...keys,
      now,
      windowMs,
      this.options.limit,
      options.count ? '1' : '0',
    );
    return [subject ? raw : null, allowed, used, waitMs, `${base}${bucket}`, cached, generation];
  }

  /** Gives back one request (a 304 does not count). */
  async refund(bucketKey: string): Promise<void> {
    await this.redis.decr(bucketKey);
  }
}
