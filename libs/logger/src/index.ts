export { createLogger, tracedLogger } from './logger';
export { currentTrace, runWithTrace } from './ambient-trace';
export type { Logger, LoggerOptions } from './logger';
export { bufferedStdout } from './buffered-stdout';
export { childTraceContext, formatTraceparent, parseTraceparent } from './trace-context';
export type { TraceContext } from './trace-context';
export { startSpan, startSpanExport, tracesUrlOf } from './span-export';
export type { Span, SpanExport } from './span-export';
