import { type Logger, type TraceContext, tracedLogger } from '@pfs/logger';

type FallbackReason = 'behind' | 'replica-error' | 'positions-error';

/**
 * The lines the API writes when the store reports degraded work after the fact (a heavy read served by the
 * primary, a write's position or list-version signal lost, a cached profile not dropped): each in the trace
 * of the request whose work it was, which the store's actor carries (the API runs no async context).
 */
export function storeReports(logger: Logger) {
  const log = (trace?: TraceContext) => tracedLogger(logger, trace);
  return {
    readFromPrimary(reason: FallbackReason, error?: unknown, trace?: TraceContext): void {
      if (reason === 'behind')
        log(trace).info(
          { reason },
          'heavy read served by the primary: the replica had not replayed the write',
        );
      else log(trace).warn({ err: error, reason }, 'heavy read served by the primary');
    },
    positionLost(error: unknown, trace?: TraceContext): void {
      log(trace).warn({ err: error }, 'could not record the position of a write');
    },
    signalLost(error: unknown, userId: string, trace?: TraceContext): void {
      log(trace).warn({ err: error, userId }, 'could not signal a moved list version');
    },
    profileNotDropped(error: unknown, userId: string, trace?: TraceContext): void {
      log(trace).warn({ err: error, userId }, 'could not drop the cached profile');
    },
  };
}
