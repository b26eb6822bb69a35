import { createLogger } from '@pfs/logger';
import express from 'express';
import request from 'supertest';
import { requestIdMiddleware } from './request-id.middleware';
import { requestLoggerMiddleware } from './request-logger.middleware';

function appLoggingTo(lines: Array<Record<string, unknown>>) {
  const logger = createLogger({
    name: 'test',
    level: 'info',
    destination: { write: (line: string) => lines.push(JSON.parse(line)) },
  });
  const app = express();
  app.use(requestIdMiddleware);
  app.use(requestLoggerMiddleware(logger));
  app.get('/health', (_req, res) => res.json({ status: 'ok' }));
  app.get('/things', (_req, res) => res.status(201).json({ ok: true }));
  app.get('/boom', (_req, res) => res.status(503).end());
  return { app, logger };
}

describe('requestLoggerMiddleware', () => {
  it('when a request completes, then one line names its id, method, url, status and time', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const { app } = appLoggingTo(lines);
    await request(app).get('/things?page=2').set('X-Request-Id', 'req-1').expect(201);
    await request(app).get('/boom').expect(503);
    await request(app).get('/health').expect(200);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        service: 'test',
        msg: 'request completed',
        req: { id: 'req-1', method: 'GET', url: '/things?page=2' },
        res: { statusCode: 201 },
        responseTime: expect.any(Number),
      }),
      expect.objectContaining({ level: 50, msg: 'request errored', res: { statusCode: 503 } }),
    ]);
  });

  it('when the request line skips redaction, then the logger it came from still redacts', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const { app, logger } = appLoggingTo(lines);
    await request(app).get('/things').expect(201);
    logger.info({ body: { password: 'hunter2' } }, 'other line');
    expect(lines[1]).toMatchObject({ body: { password: '[redacted]' } });
  });
});
