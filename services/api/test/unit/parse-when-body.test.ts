import express from 'express';
import request from 'supertest';
import { parseWhenBody } from '../../src/http/parse-when-body';

/** The front door's JSON parser behind parseWhenBody: the body it leaves is what express.json alone left. */
function appWith(parser: express.RequestHandler) {
  const app = express();
  app.use(parser);
  app.use((req, res) => {
    res.json({ body: req.body === undefined ? 'undefined' : req.body });
  });
  return app;
}

const cases: Array<[string, (test: request.Test) => request.Test]> = [
  ['no body', (test) => test],
  ['a JSON body', (test) => test.set('Content-Type', 'application/json').send('{"a":1}')],
  ['Content-Length: 0', (test) => test.set('Content-Type', 'application/json').set('Content-Length', '0')],
  ['a body of another type', (test) => test.set('Content-Type', 'text/plain').send('abc')],
];

describe('parseWhenBody', () => {
  it.each(cases)(
    'when a POST has %s, then req.body is what express.json alone gives',
    async (_name, send) => {
      const alone = await send(request(appWith(express.json())).post('/'));
      const wrapped = await send(request(appWith(parseWhenBody(express.json()))).post('/'));
      expect(wrapped.status).toBe(alone.status);
      expect(wrapped.body).toEqual(alone.body);
    },
  );

  it('when a GET has no body, then the parser is not entered', async () => {
    let entered = 0;
    const counting: express.RequestHandler = (_req, _res, next) => {
      entered += 1;
      next();
    };
    await request(appWith(parseWhenBody(counting)))
      .get('/')
      .expect(200);
    expect(entered).toBe(0);
    await request(appWith(parseWhenBody(counting)))
      .post('/')
      .send({ a: 1 })
      .expect(200);
    expect(entered).toBe(1);
  });
});
