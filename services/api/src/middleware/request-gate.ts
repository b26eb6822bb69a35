import { LRUCache } from 'lru-cache';
import {
  AccessTokenRecord,
  accessTokenKey,
  hashToken,
  parseAccessTokenRecord,
  rateLimitBase,
  USER_PROFILE_KEY_PREFIX,
  userProfileGenerationKey,
  userProfileKey,
} from '@pfs/contracts';
import { isCluster, type Redis } from '@pfs/redis';
import type { ProfileMiss } from '../modules/me/user-profile-cache';
import { CLUSTER_GATE, SINGLE_SERVER_GATE } from './gate-scripts';
import type { LimitAnswer, RateLimitBatcher } from './rate-limit-batcher';
import type { TrackedKeys } from './tracked-keys';

/**
 * Authentication and rate limiting in one Redis round trip (two on a Redis Cluster): the token's
 * introspection record, the rate-limit subject derived from it (user + application; the client IP when
 * unauthenticated) and its sliding-window counter (gate-scripts.ts). When asked, it also returns the token's
 * user's cached `/me` representation, or on a miss that user's write generation (UserProfileCache): the
 * profile key comes from the record's own `sub`, never from the request, so a token reads only its own
 * user's profile.
 *
 * With `local` (GATE_LOCAL_CACHE, one Redis server), token records and cached profiles are held in the
 * process, kept true by Redis's invalidations (TrackedKeys), and the request's count goes to Redis with the
 * other requests of its subject that came together (RateLimitBatcher): one script call per subject and
 * batch instead of one per request, and no record or profile in its reply. While tracking is down it falls
 * back to the one-trip script.
 */
export interface GateLocal {
  keys: TrackedKeys;
  limits: RateLimitBatcher;
}

/** How long a held token record or profile may be used at most, even without an invalidation. */
export const LOCAL_MAX_AGE_MS = 5 * 60_000;
/** How many token records and profile keys are held at most (about 1 KB each). */
export const LOCAL_MAX_ENTRIES = 20_000;

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

/** A valid record is held until its own `exp`; an unknown token is not held (see TrackedKeys.read). */
function untilRecordExpires([value]: (string | null)[]): number | undefined {
  const record = parseAccessTokenRecord(value);
  return record ? (record.exp ?? Number.POSITIVE_INFINITY) * 1000 : undefined;
}

/** The user's cached `/me` (hit) or the generation to fill with (miss), from its two keys' values. */
function profileOf([cached, generation]: (string | null)[]): GateResult['profile'] {
  return typeof cached === 'string' ? { cached } : { generation: generation ?? '0' };
}

export class RequestGate {
  private readonly parsedRecords = new LRUCache<string, AccessTokenRecord>({ max: LOCAL_MAX_ENTRIES });

  constructor(
    private readonly redis: Redis,
    readonly options: GateOptions,
    readonly local?: GateLocal,
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

  /**
   * Authenticates `token` (may be undefined) and counts the request unless `options.count` is false. With the
   * token's record (and profile, when asked) held and the limit decided without waiting, the answer is given
   * at once, not as a promise: the request goes on in the same turn, without the promise and microtask a
   * held answer cost each request (docs/bench.md, session 8). `clientIp` is asked only for a request without
   * a valid record (the limit's subject then), as reading it (`req.ip`) parses the proxy addresses.
   */
  check(
    token: string | undefined,
    clientIp: string | (() => string),
    options: GateCheckOptions,
  ): GateResult | Promise<GateResult> {
    const key = accessTokenKey(token ? hashToken(token) : 'none');
    const ip = typeof clientIp === 'string' ? () => clientIp : clientIp;
    if (this.local?.keys.enabled) return this.checkLocally(this.local, token ? key : undefined, ip, options);
    return this.checkInOneTrip(token, key, ip(), options);
  }

  private async checkInOneTrip(
    token: string | undefined,
    key: string,
    clientIp: string,
    options: GateCheckOptions,
  ): Promise<GateResult> {
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

  private checkLocally(
    local: GateLocal,
    key: string | undefined,
    clientIp: () => string,
    options: GateCheckOptions,
  ): GateResult | Promise<GateResult> {
    // Held values and a local decision are used as they are, without a turn of the event loop.
    const held = key ? local.keys.peek([key]) : [null];
    if (held) return this.decideLocally(local, held[0], clientIp, options);
    return local.keys
      .read([key!], untilRecordExpires)
      .then(([raw]) => this.decideLocally(local, raw, clientIp, options));
  }

  private decideLocally(
    local: GateLocal,
    raw: string | null,
    clientIp: () => string,
    options: GateCheckOptions,
  ): GateResult | Promise<GateResult> {
    let record = this.recordOf(raw);
    // The subject is the record's even when expired, as the one-trip script derives it.
    const base = record
      ? rateLimitBase({ userId: record.sub, app: record.client_id ?? 'personal' }, '')
      : rateLimitBase(undefined, clientIp());
    if (record?.exp !== undefined && record.exp * 1000 <= Date.now()) record = undefined;
    const counted = local.limits.count(base, options.count);
    const profileKeys =
      record && options.profile
        ? [userProfileKey(record.sub), userProfileGenerationKey(record.sub)]
        : undefined;
    const heldProfile = profileKeys && local.keys.peek(profileKeys);
    if (!(counted instanceof Promise) && (!profileKeys || heldProfile))
      return this.resultOf(counted, record, heldProfile && profileOf(heldProfile));
    return Promise.all([counted, heldProfile ?? (profileKeys && local.keys.read(profileKeys))]).then(
      ([limit, profile]) => this.resultOf(limit, record, profile && profileOf(profile)),
    );
  }

  /**
   * The parsed record of a held raw record: parsed (JSON and schema) once per record, not per request. Keyed
   * by the held string itself (V8 keeps a string's hash), the least recently used dropped first.
   */
  private recordOf(raw: string | null): AccessTokenRecord | undefined {
    if (raw === null) return undefined;
    let record = this.parsedRecords.get(raw);
    if (!record) {
      record = parseAccessTokenRecord(raw);
      if (!record) return undefined;
      this.parsedRecords.set(raw, record);
    }
    return record;
  }

  private resultOf(
    limit: LimitAnswer,
    record: AccessTokenRecord | undefined,
    profile: GateResult['profile'],
  ): GateResult {
    return {
      profile,
      record,
      allowed: limit.allowed,
      limit: this.options.limit,
      remaining: Math.max(0, this.options.limit - limit.used),
      retryAfterSeconds: Math.max(1, Math.ceil(limit.waitMs / 1000)),
      bucketKey: limit.bucketKey,
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
    const base = rateLimitBase(subject, clientIp);
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
    if (this.local) return this.local.limits.refund(bucketKey);
    await this.redis.decr(bucketKey);
  }
}
