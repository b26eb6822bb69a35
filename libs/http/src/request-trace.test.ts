import { createLogger, currentTrace } from '@pfs/logger';
import express from 'express';
import request from 'supertest';
import { errorMiddleware } from './error.middleware';
import { requestIdMiddleware } from './request-id.middleware';
import { requestLoggerMiddleware } from './request-logger.middleware';
import { requestLogger, requestTraceOf } from './request-trace';
import { traceMiddleware } from './trace.middleware';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const TRACEPARENT = `00-${TRACE_ID}-b7ad6b7169203331-01`;

/** A service's chain as the API and auth mount it: trace, request id, request log, routes, error middleware. */
function appLoggingTo(lines: Array<Record<string, unknown>>) {
  const logger = createLogger({
    name: 'test',
    level: 'info',
    destination: { write: (line: string) => lines.push(JSON.parse(line)) },
  });
  const app = express();
  app.use(traceMiddleware, requestIdMiddleware, requestLoggerMiddleware(logger));
  app.get('/warns', async (req, res) => {
    // A line written after an await, as a use case writes one deep in its work.
    await new Promise((resolve) => setImmediate(resolve));
    requestLogger(logger, req).warn({ ambient: currentTrace() ?? null }, 'something to look at');
    res.json({ traceId: requestTraceOf(req)?.traceId });
  });
  app.get('/fails', async () => {
    await new Promise((resolve) => setImmediate(resolve));
    throw new Error('boom');
  });
  app.use(errorMiddleware(logger));
  return app;
}

describe('the request trace', () => {
  it('when a request carries a traceparent, then every line it writes (handler, request line) names its trace id', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const app = appLoggingTo(lines);
    await request(app).get('/warns').set('traceparent', TRACEPARENT).expect(200, { traceId: TRACE_ID });
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((line) => [line.msg, line.traceId])).toEqual([
      ['something to look at', TRACE_ID],
      ['request completed', TRACE_ID],
    ]);
    // Carried on the request, not in async context: no AsyncLocalStorage runs for a request.
    expect(lines[0].ambient).toBeNull();
  });

  it('when a handler fails, then the error line and the request line name the request trace id', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const app = appLoggingTo(lines);
    await request(app).get('/fails').set('traceparent', TRACEPARENT).expect(500);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((line) => [line.msg, line.traceId])).toEqual([
      ['request failed', TRACE_ID],
      ['request errored', TRACE_ID],
    ]);
  });

  it('when requests carry no traceparent, then each starts its own trace, shared by all of its lines', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const app = appLoggingTo(lines);
    const [first, second] = await Promise.all([request(app).get('/warns'), request(app).get('/warns')]);
    await new Promise((resolve) => setImmediate(resolve));
    const ids = [first.body.traceId, second.body.traceId];
    expect(ids[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(ids[1]).not.toBe(ids[0]);
    for (const id of ids) {
      expect(lines.filter((line) => line.traceId === id).map((line) => line.msg)).toEqual([
        'something to look at',
        'request completed',
      ]);
    }
  });
});
