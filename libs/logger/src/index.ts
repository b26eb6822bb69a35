export { createLogger } from './logger';
export type { Logger, LoggerOptions } from './logger';
export { bufferedStdout } from './buffered-stdout';
export {
  childTraceContext,
  currentTrace,
  formatTraceparent,
  parseTraceparent,
  runWithTrace,
} from './trace-context';
export type { TraceContext } from './trace-context';
export { startSpan, startSpanExport, tracesUrlOf } from './span-export';
export type { Span, SpanExport } from './span-export';
