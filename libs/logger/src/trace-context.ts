import { randomUUID } from 'node:crypto';

/** The W3C Trace Context of the work in progress (https://www.w3.org/TR/trace-context/). */
export interface TraceContext {
  /** 32 lowercase hex digits, shared by every hop of one trace. */
  traceId: string;
  /** 16 lowercase hex digits: this hop's span. */
  spanId: string;
  /** 2 hex digits; `01` = sampled. */
  flags: string;
}

/** `version-traceid-parentid-flags`; a future version may append fields after these four. */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** The caller's context from a `traceparent` value, or undefined when it is absent or malformed (then we start one). */
export function parseTraceparent(value: unknown): TraceContext | undefined {
  if (typeof value !== 'string' || value.length > 512) return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, rest] = match;
  if (version === 'ff' || (version === '00' && rest) || traceId === ZERO_TRACE || spanId === ZERO_SPAN) {
    return undefined;
  }
  return { traceId, spanId, flags };
}

/** A new span: in the parent's trace when there is one, else in a new trace. randomUUID is pooled, so cheap. */
export function childTraceContext(parent?: TraceContext): TraceContext {
  return {
    traceId: parent?.traceId ?? randomUUID().replace(/-/g, ''),
    spanId: randomUUID().replace(/-/g, '').slice(0, 16),
    flags: parent?.flags ?? '01',
  };
}

export function formatTraceparent(context: TraceContext): string {
  return `00-${context.traceId}-${context.spanId}-${context.flags}`;
}
