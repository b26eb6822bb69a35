import { AppError } from '@pfs/errors';
import express, { type NextFunction, type Request, type Response } from 'express';
import request from 'supertest';
import { attachCallerContext, callerOf } from './caller-context';
import { methodNotAllowed } from './method-not-allowed';
import type { Operation, PublishedResource } from './operation';
import { operationsRouter } from './operations-router';
import { publishResources } from './publish';

type Ctx = { scopes: string[] };
const answer = (name: string) => (_ctx: Ctx, _req: Request, res: Response) => res.json({ name });

const things: PublishedResource = {
  schema: { name: 'things', title: 'Thing', properties: {}, createRequired: [] },
  rels: ['list', 'self', 'special', 'remove'],
};
const others: PublishedResource = {
  schema: { name: 'others', title: 'Other', properties: {}, createRequired: [] },
  rels: ['list'],
};

const operations: Operation<Ctx>[] = [
  {
    resource: 'things',
    rel: 'self',
    method: 'GET',
    href: '/things/{id}',
    title: 'One',
    handler: answer('self'),
  },
  {
    resource: 'others',
    rel: 'list',
    method: 'GET',
    href: '/others',
    title: 'Others',
    handler: answer('others'),
  },
  {
    resource: 'things',
    rel: 'special',
    method: 'GET',
    href: '/things/special',
    title: 'Special',
    scope: 'things:r extra:r',
    handler: answer('special'),
  },
  { resource: 'things', rel: 'list', method: 'GET', href: '/things', title: 'All', handler: answer('list') },
  {
    resource: 'things',
    rel: 'remove',
    method: 'DELETE',
    href: '/things/{id}',
    title: 'Del',
    handler: answer('del'),
  },
];

function appOf(list: Operation<Ctx>[], scopes: string[]) {
  const app = express();
  app.use((req: Request, _res: Response, next: NextFunction) => {
    attachCallerContext(req, { userId: 'u', scopes });
    next();
  });
  app.use(operationsRouter(list, (req) => ({ scopes: [...callerOf(req).scopes] })));
  app.use(methodNotAllowed(list));
  // The status and headers of the error, as the services' error middleware sends them.
  app.use((error: AppError, _req: Request, res: Response, _next: NextFunction) => {
    res
      .status(error.status)
      .set(error.headers ?? {})
      .json({ code: error.code });
  });
  return app;
}

describe('publishResources', () => {
  it('when modules come in any order, then resources follow the order given and links the owner’s relations', () => {
    const forward = publishResources([things, others], operations, ['others', 'things']);
    const backward = publishResources([others, things], [...operations].reverse(), ['others', 'things']);
    expect(backward).toEqual(forward);
    expect(forward.map((schema) => schema.name)).toEqual(['others', 'things']);
    expect(forward[1].links.map((link) => link.rel)).toEqual(['list', 'self', 'special', 'remove']);
    expect(forward[1].links[2]).toEqual({
      rel: 'special',
      method: 'GET',
      href: '/things/special',
      title: 'Special',
      scope: 'things:r extra:r',
    });
  });

  it('when an operation serves a relation its resource does not list, then publishing refuses', () => {
    const stray = { ...operations[0], rel: 'stray' };
    expect(() => publishResources([things, others], [...operations, stray], ['others', 'things'])).toThrow(
      /does not list the relation stray/,
    );
  });

  it('when a listed relation has no operation, or a resource no place, then publishing refuses', () => {
    expect(() => publishResources([things, others], operations.slice(1), ['others', 'things'])).toThrow(
      /no operation serves the relation self of things/,
    );
    expect(() => publishResources([things, others], operations, ['things'])).toThrow(/no place/);
    expect(() => publishResources([things], operations, ['others', 'things'])).toThrow(
      /no module publishes others/,
    );
  });
});

describe('operationsRouter', () => {
  it('when a literal path and a parameter path overlap, then the literal one answers whatever the listing order', async () => {
    for (const list of [operations, [...operations].reverse()]) {
      const app = appOf(list, ['things:r', 'extra:r']);
      expect((await request(app).get('/things/special').expect(200)).body).toEqual({ name: 'special' });
      expect((await request(app).get('/things/7').expect(200)).body).toEqual({ name: 'self' });
      expect((await request(app).head('/things/7')).status).toBe(200);
    }
  });

  it('when the token lacks one of the scopes an operation declares, then 403 names it', async () => {
    const denied = await request(appOf(operations, ['things:r']))
      .get('/things/special')
      .expect(403);
    expect(denied.headers['www-authenticate']).toContain('scope="extra:r"');
  });

  it('when a published path is asked with another method, then 405 with Allow from the operations', async () => {
    const refused = await request(appOf(operations, [])).post('/things/7').expect(405);
    expect(refused.headers.allow).toBe('DELETE, GET, HEAD');
  });

  it('when two operations answer one route with different handlers, then mounting refuses', () => {
    const clash = { ...operations[0], rel: 'again', href: '/things/{key}', handler: answer('again') };
    expect(() => appOf([...operations, clash], [])).toThrow(/two operations answer GET \/things\/\{\}/);
  });
});
