import type { Logger } from '@pfs/logger';
import type { LedgerDeps } from '../../ledger-deps';
import { materializeDueRepeats } from './repeat-series.use-case';

/**
 * Postgres advisory lock key of the materializer (any fixed 64-bit number no other code uses): with several
 * API processes, one pass at a time does the work (under a transaction-level lock, so it works behind
 * PgBouncer in transaction mode) and the others skip that tick.
 */
export const MATERIALIZER_LOCK_KEY = 7_246_310_001;

export interface RepeatTimer {
  /** Runs one pass now (if no other process holds the lock); resolves with what it created. */
  runOnce(): Promise<{ series: number; created: number } | 'locked'>;
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

/**
 * Creates due occurrences of repeating entries every `intervalSeconds` (and once right after start). The
 * timer is unref'd: it never keeps the process alive; graceful shutdown calls `stop`.
 */
export function startRepeatTimer(deps: LedgerDeps, logger: Logger, intervalSeconds: number): RepeatTimer {
  let running: Promise<unknown> | undefined;
  let stopped = false;

  async function pass(): Promise<{ series: number; created: number } | 'locked'> {
    const outcome = await deps.repeats.whileLocked(MATERIALIZER_LOCK_KEY, async () => {
      const result = await materializeDueRepeats(deps, new Date(), {
        onError: (seriesId, error) =>
          logger.warn({ seriesId, err: error }, 'repeating entry series could not be extended'),
      });
      if (result.created) logger.info(result, 'repeating entries created');
      else logger.debug(result, 'repeat materializer pass: nothing due');
      return result;
    });
    if (outcome === 'locked') logger.debug('repeat materializer pass skipped: another process runs one');
    return outcome;
  }

  const runOnce = () => {
    const current = pass();
    running = current.catch((error) => logger.error({ err: error }, 'repeat materializer failed'));
    return current;
  };
  const tick = () => {
    if (stopped || running) return;
    void runOnce().finally(() => {
      running = undefined;
    });
  };
  const timer = intervalSeconds > 0 ? setInterval(tick, intervalSeconds * 1000) : undefined;
  timer?.unref();
  const first = intervalSeconds > 0 ? setTimeout(tick, 0) : undefined;
  first?.unref();
  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      if (first) clearTimeout(first);
      await running;
    },
  };
}
