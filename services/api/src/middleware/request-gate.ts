import {
  AccessTokenRecord,
  accessTokenKey,
  hashToken,
  parseAccessTokenRecord,
  USER_PROFILE_KEY_PREFIX,
} from '@pfs/contracts';
import type { Redis } from '@pfs/redis';
import type { ProfileMiss } from '../modules/me/user-profile-cache';

/**
 * Authentication and rate limiting in one Redis round trip: the script reads the token's introspection
 * record, derives the rate-limit subject from it (user + application; the client IP when unauthenticated)
 * and applies a sliding-window counter: two fixed buckets, the previous one weighted by how much of it
 * still overlaps the window. Memory is two integers per subject, whatever the limit.
 * Keys other than KEYS[1] are built in the script from the deployment prefix (ioredis prefixes only KEYS).
 * When asked (ARGV[7], the profile key prefix), it also returns the token's user's cached `/me`
 * representation, or on a miss that user's write generation (UserProfileCache): the profile key comes from
 * the record's own `sub`, never from the request, so a token reads only its own user's profile.
 */
const GATE_SCRIPT = `
local record = redis.call('GET', KEYS[1])
local subject = nil
local decoded = nil
if record then
  local ok
  ok, decoded = pcall(cjson.decode, record)
  if ok and type(decoded) == 'table' and decoded.sub then
    subject = 'u:' .. tostring(decoded.sub) .. ':' .. tostring(decoded.client_id or 'personal')
  else
    record = false
  end
end
if not subject then subject = 'ip:' .. ARGV[5] end
local now = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
local bucket = math.floor(now / window)
local base = 'rl:' .. subject .. ':'
local current = tonumber(redis.call('GET', ARGV[1] .. base .. bucket) or '0')
local previous = tonumber(redis.call('GET', ARGV[1] .. base .. (bucket - 1)) or '0')
local weight = 1 - (now % window) / window
local used = math.floor(previous * weight) + current
local allowed = 1
if ARGV[6] == '1' then
  if used >= limit then
    allowed = 0
  else
    current = redis.call('INCR', ARGV[1] .. base .. bucket)
    if current == 1 then redis.call('PEXPIRE', ARGV[1] .. base .. bucket, window * 2) end
    used = used + 1
  end
end
local wait = 0
if allowed == 0 then
  local offset = now % window
  if current < limit and previous > 0 then
    wait = math.max(0, window * (1 - (limit - current) / previous) - offset)
  else
    wait = (window - offset) + window * (1 - limit / math.max(current, limit))
  end
end
local profile = false
local generation = false
if record and ARGV[7] ~= '' then
  local profileKey = ARGV[1] .. ARGV[7] .. tostring(decoded.sub)
  profile = redis.call('GET', profileKey)
  if not profile then generation = redis.call('GET', profileKey .. ':gen') or '0' end
end
return { record or false, allowed, used, math.ceil(wait), base .. bucket, profile, generation }
`;

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

export class RequestGate {
  constructor(
    private readonly redis: Redis,
    readonly options: GateOptions,
  ) {
    if (!('pfsGate' in redis)) {
      redis.defineCommand('pfsGate', { numberOfKeys: 1, lua: GATE_SCRIPT });
    }
  }

  /** Authenticates `token` (may be undefined) and counts the request unless `options.count` is false. */
  async check(token: string | undefined, clientIp: string, options: GateCheckOptions): Promise<GateResult> {
    const key = accessTokenKey(token ? hashToken(token) : 'none');
    const windowMs = this.options.windowSeconds * 1000;
    const reply = (await (
      this.redis as unknown as { pfsGate: (...args: unknown[]) => Promise<GateReply> }
    ).pfsGate(
      key,
      this.options.keyPrefix,
      Date.now(),
      windowMs,
      this.options.limit,
      clientIp,
      options.count ? '1' : '0',
      options.profile ? USER_PROFILE_KEY_PREFIX : '',
    )) as GateReply;
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

  /** Gives back one request (a 304 does not count). */
  async refund(bucketKey: string): Promise<void> {
    await this.redis.decr(bucketKey);
  }
}
