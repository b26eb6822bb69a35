import express, { Router } from 'express';
import request from 'supertest';
import { pathScoped, routeSegmentsOf } from '../../src/http/path-scoped';

/** The front door's public and file routers are entered only by the paths their routes start with. */
function appWith(router: Router) {
  const app = express();
  app.use(pathScoped(router));
  app.use((_req, res) => {
    res.status(404).send('fell through');
  });
  return app;
}

function routes(): Router {
  const router = Router();
  router.get('/health/live', (_req, res) => {
    res.send('live');
  });
  router.get(['/schema', '/schema/:name'], (req, res) => {
    res.send(`schema ${String(req.params.name ?? '')}`);
  });
  router.get(/^\/export-files\/(.+)$/, (_req, res) => {
    res.send('file');
  });
  router.get('/', (_req, res) => {
    res.send('index');
  });
  return router;
}

describe('pathScoped', () => {
  it('when a path starts with a segment of its routes, then the router answers it as Express would', async () => {
    const app = appWith(routes());
    await request(app).get('/health/live').expect(200, 'live');
    await request(app).get('/HEALTH/live').expect(200, 'live');
    await request(app).get('/schema/').expect(200, 'schema ');
    await request(app).get('/schema/entry?x=1').expect(200, 'schema entry');
    await request(app).get('/export-files/a/b.csv').expect(200, 'file');
    await request(app).get('/').expect(200, 'index');
  });

  it('when a path starts with another segment, then it goes on past the router', async () => {
    const app = appWith(routes());
    await request(app).get('/me').expect(404, 'fell through');
    await request(app).get('/healthy').expect(404, 'fell through');
    await request(app).get('/schemas/entry').expect(404, 'fell through');
  });

  it('when a path starts with a segment of its routes but no route matches, then it goes on too', async () => {
    const app = appWith(routes());
    await request(app).get('/health/other').expect(404, 'fell through');
    await request(app).post('/schema').expect(404, 'fell through');
  });

  it('when built, then the segments are read from the routes, lower-cased', () => {
    expect([...routeSegmentsOf(routes())].sort()).toEqual(['', 'export-files', 'health', 'schema']);
  });

  it('when a route starts with a parameter, then building refuses it', () => {
    const router = Router().get('/:id', (_req, res) => {
      res.end();
    });
    expect(() => pathScoped(router)).toThrow('must start with a literal segment');
  });

  it('when the router holds a middleware (not a route), then building refuses it', () => {
    const router = Router().use((_req, _res, next) => next());
    expect(() => pathScoped(router)).toThrow('holds routes only');
  });
});
