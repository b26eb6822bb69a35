import { startHttpServer, type RunningHttpServer } from '@pfs/http';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTestUser,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';

/**
 * The response head as it goes on the wire: every header line's name (its case), value and position. Clients
 * and caches see these bytes; a change to how the API builds its head (docs/bench.md, the `GET /me` header
 * work) must leave them as they are. Read through a real socket with Node's `rawHeaders`, which keep the order
 * and case that supertest's parsed headers lose.
 */
let t: ApiTestApp;
let server: RunningHttpServer;
let user: TestUser;

beforeAll(async () => {
  t = await startApiTestApp({ RATE_LIMIT_LIMIT: '1000000' });
  // The service's own server (http-server.ts), as main.ts runs it.
  server = await startHttpServer(t.app, { port: 0 });
  user = await createTestUser(t.deps);
});
afterAll(async () => {
  await server.stop(100);
  await t.close();
});

interface RawAnswer {
  status: number;
  /** Each header line as `[name, value]`, in the order and case it was sent. */
  lines: Array<[string, string]>;
}

function rawGet(path: string, headers: IncomingHttpHeaders = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(`${server.url}${path}`, { headers }, (answer) => {
      const lines: Array<[string, string]> = [];
      for (let i = 0; i < answer.rawHeaders.length; i += 2) {
        lines.push([answer.rawHeaders[i], answer.rawHeaders[i + 1]]);
      }
      answer.resume();
      answer.on('end', () => resolve({ status: answer.statusCode!, lines }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

/** helmet's headers (recordedHeaders replays them), in helmet's order, after the request id. */
const HELMET: Array<[string, string]> = [
  [
    'Content-Security-Policy',
    "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline';upgrade-insecure-requests",
  ],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'SAMEORIGIN'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
];

type Expected = Array<[string, string | RegExp]>;

const REQUEST_ID: Expected[number] = ['X-Request-Id', /^[0-9a-f-]{36}$/];
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const STRONG_ETAG = /^"[^"]+"$/;
/** What Node adds after the application's headers on a kept-alive connection. */
const CONNECTION: Expected = [
  ['Date', HTTP_DATE],
  ['Connection', 'keep-alive'],
  ['Keep-Alive', 'timeout=5'],
];

function expectLines(answer: RawAnswer, expected: Expected): void {
  expect(answer.lines.map(([name]) => name)).toEqual(expected.map(([name]) => name));
  answer.lines.forEach(([, value], index) => {
    const wanted = expected[index][1];
    if (typeof wanted === 'string') expect(value).toBe(wanted);
    else expect(value).toMatch(wanted);
  });
}

const rateLimit = (remaining: RegExp | string = /^\d+$/): Expected => [
  ['X-RateLimit-Limit', '1000000'],
  ['X-RateLimit-Remaining', remaining],
];

describe('the response head on the wire', () => {
  it('when GET /me answers 200, then its header lines are these, in this order and case', async () => {
    await rawGet('/me', { authorization: user.auth });
    const answer = await rawGet('/me', { authorization: user.auth });
    expect(answer.status).toBe(200);
    expectLines(answer, [
      REQUEST_ID,
      ...HELMET,
      ...rateLimit(),
      ['ETag', STRONG_ETAG],
      ['Last-Modified', HTTP_DATE],
      ['Cache-Control', 'private, no-cache'],
      ['Content-Type', /^application\/vnd\.service\+json; profile=http:\/\/[^ ]+\/schema\/me#$/],
      ['Content-Length', /^\d+$/],
      ...CONNECTION,
    ]);
  });

  it('when GET /me answers 304, then it repeats the validators and the refunded limit, without a body header', async () => {
    const first = await rawGet('/me', { authorization: user.auth });
    const etag = first.lines.find(([name]) => name === 'ETag')![1];
    const answer = await rawGet('/me', { authorization: user.auth, 'if-none-match': etag });
    expect(answer.status).toBe(304);
    expectLines(answer, [
      REQUEST_ID,
      ...HELMET,
      ...rateLimit(),
      ['ETag', etag],
      ['Last-Modified', HTTP_DATE],
      ['Cache-Control', 'private, no-cache'],
      ...CONNECTION,
    ]);
  });

  it('when an unchanged GET /entries page is answered, then its list headers keep their place', async () => {
    const created = await request(t.app)
      .post('/accounts')
      .set('Authorization', user.auth)
      .send({ name: 'Cash', currency: { code: 'EUR' }, initial_balance: 10 })
      .expect(201);
    const account = String(created.headers.location).split('/').pop()!;
    const category = await createCategory(t.app, user, { name: 'Food', type: 'expense' });
    await request(t.app)
      .post('/entries')
      .set('Authorization', user.auth)
      .send({ amount: -1.25, currency: { code: 'EUR' }, date: '2025-05-09', account, category })
      .expect(201);
    const first = await rawGet('/entries', { authorization: user.auth });
    const answer = await rawGet('/entries', { authorization: user.auth });
    expect(answer.status).toBe(200);
    // Per request: the id, the limit left and the date; every other line is the stored page's.
    const perRequest = new Set(['X-Request-Id', 'X-RateLimit-Remaining', 'Date']);
    const stored = (lines: RawAnswer['lines']) => lines.filter(([name]) => !perRequest.has(name));
    expect(stored(answer.lines)).toEqual(stored(first.lines));
    expectLines(answer, [
      REQUEST_ID,
      ...HELMET,
      ...rateLimit(),
      ['Link', '</entries?page=0&per_page=200>; rel="first", </entries?page=0&per_page=200>; rel="last"'],
      ['X-Total-Count', '1'],
      ['Service-Modified', /.+/],
      ['ETag', STRONG_ETAG],
      ['Last-Modified', HTTP_DATE],
      ['Cache-Control', 'private, no-cache'],
      ['Content-Type', /^application\/vnd\.service\+json; profile=http:\/\/[^ ]+\/schema\/entries#$/],
      ['Content-Length', /^\d+$/],
      ...CONNECTION,
    ]);
  });

  it('when a request has no token, then the 401 carries the challenge after the limit headers', async () => {
    const answer = await rawGet('/me');
    expect(answer.status).toBe(401);
    expectLines(answer, [
      REQUEST_ID,
      ...HELMET,
      ...rateLimit(),
      ['WWW-Authenticate', /^Bearer realm="pfs", resource_metadata="[^"]+", Basic realm="pfs"$/],
      ['Content-Type', 'application/json; charset=utf-8'],
      ['Content-Length', /^\d+$/],
      ...CONNECTION,
    ]);
  });
});
