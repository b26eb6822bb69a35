/**
 * The Lua of the RequestGate (request-gate.ts). The rate limit is a sliding-window counter: two fixed
 * buckets, the previous one weighted by how much of it still overlaps the window; memory is two integers
 * per subject, whatever the limit.
 *
 * Key names (under the deployment prefix) keep every key of one subject in one Redis Cluster hash slot:
 * `rl:{<userId>}:<app>:<bucket>` for a user and application, `rl:{ip:<ip>}:<bucket>` for an unauthenticated
 * client, and the user's cached `/me` under `user-profile:{<userId>}` (@pfs/contracts), the same `{<userId>}`
 * tag, so that one script may read the limit and the profile together on a cluster.
 */

/**
 * Sets `wait`: the milliseconds until the sliding window allows a request again when `refused` (a Lua
 * condition) holds, else 0, from the `current`, `previous`, `now`, `window` and `limit` locals. One text for
 * both scripts that refuse (LIMIT, BATCH_LIMIT), so their Retry-After agree.
 */
const waitWhen = (refused: string) => `
local wait = 0
if ${refused} then
  local offset = now % window
  if current < limit and previous > 0 then
    wait = math.max(0, window * (1 - (limit - current) / previous) - offset)
  else
    wait = (window - offset) + window * (1 - limit / math.max(current, limit))
  end
end`;

/** Counts (when `counting`) and decides, from `curKey`/`prevKey`, `now`, `window` and `limit` locals. */
const LIMIT = `
local bucketKeyTtl = window * 2
local current = tonumber(redis.call('GET', curKey) or '0')
local previous = tonumber(redis.call('GET', prevKey) or '0')
local weight = 1 - (now % window) / window
local used = math.floor(previous * weight) + current
local allowed = 1
if counting then
  if used >= limit then
    allowed = 0
  else
    current = redis.call('INCR', curKey)
    if current == 1 then redis.call('PEXPIRE', curKey, bucketKeyTtl) end
    used = used + 1
  end
end
${waitWhen('allowed == 0')}`;

/**
 * One server: authentication, rate limit and the cached profile in one round trip. KEYS[1] is the token's
 * record; the other keys are built here from the deployment prefix (ARGV[1]; ioredis prefixes only KEYS)
 * and the record's own `sub`, never from the request, so a token reads only its own user's profile.
 * ARGV: prefix, now, window ms, limit, client IP, '1' to count, profile key prefix ('' for none).
 */
export const SINGLE_SERVER_GATE = `
local record = redis.call('GET', KEYS[1])
local decoded = nil
local base = nil
if record then
  local ok
  ok, decoded = pcall(cjson.decode, record)
  if ok and type(decoded) == 'table' and decoded.sub then
    base = 'rl:{' .. tostring(decoded.sub) .. '}:' .. tostring(decoded.client_id or 'personal') .. ':'
  else
    record = false
  end
end
if not base then base = 'rl:{ip:' .. ARGV[5] .. '}:' end
local now = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])
local counting = ARGV[6] == '1'
local bucket = math.floor(now / window)
local curKey = ARGV[1] .. base .. bucket
local prevKey = ARGV[1] .. base .. (bucket - 1)
${LIMIT}
local profile = false
local generation = false
if record and ARGV[7] ~= '' then
  local profileKey = ARGV[1] .. ARGV[7] .. '{' .. tostring(decoded.sub) .. '}'
  profile = redis.call('GET', profileKey)
  if not profile then generation = redis.call('GET', profileKey .. ':gen') or '0' end
end
return { record or false, allowed, used, math.ceil(wait), base .. bucket, profile, generation }
`;

/**
 * Redis Cluster: the token's record is read first (its key hashes anywhere), then this script runs on the
 * subject's slot with every key declared: KEYS[1] and KEYS[2] the current and previous buckets, and when
 * the profile is asked KEYS[3] and KEYS[4] the user's cached `/me` and its generation.
 * ARGV: now, window ms, limit, '1' to count.
 */
export const CLUSTER_GATE = `
local curKey = KEYS[1]
local prevKey = KEYS[2]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local counting = ARGV[4] == '1'
${LIMIT}
local profile = false
local generation = false
if KEYS[3] then
  profile = redis.call('GET', KEYS[3])
  if not profile then generation = redis.call('GET', KEYS[4]) or '0' end
end
return { allowed, used, math.ceil(wait), profile, generation }
`;

/**
 * A batch of requests of one subject (rate-limit-batcher.ts): KEYS[1] and KEYS[2] the current and previous
 * buckets. First counts the `counted` requests this process already admitted from its own counts (they were
 * served: counted whatever the total), then admits as many of the `asked` waiting requests as the window
 * still allows, in one INCRBY. ARGV: now, window ms, limit, asked, counted.
 * Returns the number admitted, the count before them, the wait (ms) when some were refused, and the buckets'
 * counts as this batch leaves them (the process decides from them until its next batch is answered).
 */
export const BATCH_LIMIT = `
local curKey = KEYS[1]
local prevKey = KEYS[2]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local asked = tonumber(ARGV[4])
local counted = tonumber(ARGV[5])
local current = tonumber(redis.call('GET', curKey) or '0')
local previous = tonumber(redis.call('GET', prevKey) or '0')
if counted > 0 then current = redis.call('INCRBY', curKey, counted) end
local weight = 1 - (now % window) / window
local used = math.floor(previous * weight) + current
local admitted = math.max(0, math.min(asked, limit - used))
if admitted > 0 then current = redis.call('INCRBY', curKey, admitted) end
if redis.call('PTTL', curKey) == -1 then redis.call('PEXPIRE', curKey, window * 2) end
${waitWhen('admitted < asked')}
return { admitted, used, math.ceil(wait), current, previous }
`;
