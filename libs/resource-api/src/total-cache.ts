import type { Redis } from '@pfs/redis';
import type { TotalCountCache } from '@pfs/resource-store';
import { createHash } from 'node:crypto';
import type { Request } from 'express';

/** Long enough to serve a client paging through a large list; totals are tiny. */
const TTL_SECONDS = 600;
/** Parameters that choose a page, not the set being counted. */
const PAGE_PARAMS = new Set(['page', 'per_page', 'cursor']);

/** The filters of a list request, order-independent: the part of the query that decides the total. */
function filterKey(req: Request): string {
  const cut = req.originalUrl.indexOf('?');
  const query = new URLSearchParams(cut === -1 ? '' : req.originalUrl.slice(cut + 1));
  const kept = [...query]
    .filter(([name]) => !PAGE_PARAMS.has(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha1')
    .update(JSON.stringify([req.path, kept]))
    .digest('base64url');
}

/**
 * X-Total-Count without `count(*)` on every page: counting 1,000,000 entries costs tens of milliseconds,
 * and a client paging through them would pay it per page. Keys carry the user's watermark, so any write
 * makes them unreachable (no invalidation needed); they expire on their own.
 */
export function redisTotalCache(
  redis: Redis,
  endpoint: string,
  userId: string,
  req: Request,
): TotalCountCache {
  // The key is made when first used: a list whose total comes another way (an unfiltered page of entries reads
  // it from the per-account counts) never hashes its query for it.
  let base: string | undefined;
  const keyAt = (watermark: string) => {
    base ??= `count:${endpoint}:${userId}:${filterKey(req)}:`;
    return base + watermark;
  };
  return {
    async get(watermark) {
      const raw = await redis.get(keyAt(watermark));
      return raw === null ? undefined : Number(raw);
    },
    async set(watermark, total) {
      await redis.set(keyAt(watermark), String(total), 'EX', TTL_SECONDS);
    },
  };
}
