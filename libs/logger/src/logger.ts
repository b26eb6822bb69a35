import pino, { Logger } from 'pino';
import { currentTrace } from './ambient-trace';
import type { TraceContext } from './trace-context';

export type { Logger };

/**
 * Paths never written to a log line: credentials in headers, form fields and bodies.
 * pino-http logs `req.headers`; our own code logs objects with these names.
 */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-service-otp"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.client_secret',
  '*.access_token',
  '*.refresh_token',
  // The OAuth authorization code, where our code logs one; never `*.code`, which would also hide an
  // error's `code` (`ECONNREFUSED`, `ETIMEDOUT`, Postgres' SQLSTATE), the first thing an operator needs.
  'body.code',
  'req.body.code',
  'query.code',
  'req.query.code',
  '*.token',
];

export interface LoggerOptions {
  name: string;
  level: string;
  /** Where lines go; defaults to stdout. Tests pass a stream to read what was logged. */
  destination?: pino.DestinationStream;
}

/**
 * Every line written while an ambient trace is current (a worker's job, ambient-trace.ts) names it, so one
 * trace id finds all its lines in every service. Requests carry theirs explicitly: `tracedLogger`.
 */
function traceFields(): object {
  const trace = currentTrace();
  // A fresh object each time: pino merges the line's own fields into it.
  return trace ? { traceId: trace.traceId } : {};
}

/** JSON logs, one line each, with secrets redacted and the current trace id. */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      name: options.name,
      level: options.level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      base: { service: options.name },
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin: traceFields,
    },
    options.destination,
  );
}

/**
 * The logger for the lines of one piece of traced work (a request: `requestLogger` in @pfs/http): each line
 * names its trace id, where the ambient trace's mixin would put it. Made on demand, by the code about to
 * write a line: a request that writes only its request line makes none.
 */
export function tracedLogger(logger: Logger, trace: TraceContext | undefined): Logger {
  return trace ? logger.child({ traceId: trace.traceId }) : logger;
}
