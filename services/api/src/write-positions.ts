import type { Redis } from '@pfs/redis';
import type { WritePositions } from '@pfs/resource-store';

/**
 * Read-your-writes across API processes: the primary's WAL position (pg_lsn text, `16/B374D848`) of each
 * user's last write, in Redis (`wal-position:<userId>`, under the deployment prefix), so a heavy read served by
 * any process waits for the replica to pass it (ReadRouting). A position only moves forward (two writes
 * recording out of order keep the later one); it expires after `ttlSeconds`, long after any replica caught up.
 */
const RECORD_SCRIPT = `
local function lsn(text)
  local high, low = string.match(text, '^(%x+)/(%x+)$')
  return tonumber(high, 16) * 4294967296 + tonumber(low, 16)
end
local current = redis.call('GET', KEYS[1])
if current and lsn(current) >= lsn(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return 1`;

export const writePositionKey = (userId: string) => `wal-position:${userId}`;

type PositionsRedis = Redis & {
  pfsRecordPosition(key: string, position: string, ttlSeconds: number): Promise<number>;
};

export class RedisWritePositions implements WritePositions {
  private readonly redis: PositionsRedis;

  constructor(
    redis: Redis,
    private readonly ttlSeconds = 3_600,
  ) {
    if (!('pfsRecordPosition' in redis))
      redis.defineCommand('pfsRecordPosition', { numberOfKeys: 1, lua: RECORD_SCRIPT });
    this.redis = redis as PositionsRedis;
  }

  async latest(userId: string): Promise<string | undefined> {
    return (await this.redis.get(writePositionKey(userId))) ?? undefined;
  }

  async record(userId: string, position: string): Promise<void> {
    await this.redis.pfsRecordPosition(writePositionKey(userId), position, this.ttlSeconds);
  }
}
