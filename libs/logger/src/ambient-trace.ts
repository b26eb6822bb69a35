import { AsyncLocalStorage } from 'node:async_hooks';
import type { TraceContext } from './trace-context';

/**
 * The trace of work that has no request object to carry it: the worker's jobs (processors/traced-job.ts),
 * whose use cases log and queue far from the job. Only the worker calls `runWithTrace`. The API and the auth
 * service carry each request's trace explicitly (request-trace.ts in @pfs/http, `tracedLogger`): on Node 20
 * the first `run` of an AsyncLocalStorage turns on async hooks for the whole process, an init hook on every
 * promise and async resource of every request (about 7% of a `GET /me`, docs/bench.md). Until then
 * `currentTrace` answers undefined at the cost of a property read.
 */
const store = new AsyncLocalStorage<TraceContext>();

/** Runs `fn` with `context` as the current trace: every log line written inside carries its `traceId`. */
export function runWithTrace<T>(context: TraceContext, fn: () => T): T {
  return store.run(context, fn);
}

export function currentTrace(): TraceContext | undefined {
  return store.getStore();
}
