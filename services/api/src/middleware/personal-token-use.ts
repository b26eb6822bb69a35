import { personalTokenUsedKey } from '@pfs/contracts';
import { type TraceContext, tracedLogger } from '@pfs/logger';
import type { ApiDependencies } from '../dependencies';

/** At most one write per token per minute: last-used time is for humans, not an audit log. */
const MIN_INTERVAL_MS = 60_000;
const MAX_TRACKED = 10_000;

/**
 * Records when a personal token was last used, cheaply: remembered per process so the hot path writes
 * to Redis at most once a minute per token, fire-and-forget (a failed write never fails the request).
 */
export function personalTokenUseRecorder(deps: Pick<ApiDependencies, 'redis' | 'logger'>) {
  const lastWrite = new Map<string, number>();
  return (tokenId: string, trace?: TraceContext): void => {
    const now = Date.now();
    if ((lastWrite.get(tokenId) ?? 0) + MIN_INTERVAL_MS > now) return;
    if (lastWrite.size >= MAX_TRACKED) lastWrite.clear();
    lastWrite.set(tokenId, now);
    deps.redis
      .set(personalTokenUsedKey(tokenId), String(now))
      .catch((error) =>
        tracedLogger(deps.logger, trace).warn({ err: error }, 'could not record personal token use'),
      );
  };
}
