import express from 'express';
import request from 'supertest';
import { parseForm } from '../../src/web/form';
import { parseTokenRequestForm } from '../../src/web/token-form';

/** Both readers on one app: the general page-form reader and the token route's, answering what they read. */
function readers() {
  const app = express();
  const answer: express.RequestHandler = (req, res) => res.json({ body: req.body ?? null });
  const failure: express.ErrorRequestHandler = (error, _req, res, _next) =>
    res.status(400).json({ failed: error.fields?.[0]?.field ?? true });
  app.post('/general', parseForm, answer, failure);
  app.post('/token', parseTokenRequestForm, answer, failure);
  return app;
}

const FORM = 'application/x-www-form-urlencoded';

/** Bodies a token request may carry, plain and odd: repeats, escapes, brackets, empty parts, prototypes, NUL. */
const BODIES = [
  '',
  'grant_type=refresh_token&refresh_token=abc-DEF_123',
  'grant_type=authorization_code&code=x&code_verifier=y&redirect_uri=https%3A%2F%2Fapp.example%2Fcb',
  'scope=entries%3Arw+user%3Ar&scope=user%3Ar',
  'a=1&a=2&a=3',
  'a=%ZZ&b=%E2%9C%93&c=%',
  'a=x=y&b==',
  'a&b=&=c&&d=1&',
  'a[]=1&a[]=2&b[c]=3&d%5B%5D=4',
  '__proto__=1&constructor=2&toString=3',
  'code=%00&grant_type=authorization_code',
  'a.b=1&A_B=2&a+b=3&%61=4',
  '\uFEFFgrant_type=refresh_token',
  'x=caf%C3%A9&y=caf\u00e9',
];

/** A few hundred more from a fixed seed, over the characters that change how a form is read. */
function generatedBodies(count: number): string[] {
  const pieces = [
    'a',
    'b',
    '_',
    '=',
    '&',
    '+',
    '%',
    '2',
    '0',
    '5B',
    '5D',
    '[',
    ']',
    '%41',
    '%E2%9C%93',
    'x',
    '.',
  ];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () =>
    Array.from({ length: Math.floor(next() * 12) }, () => pieces[Math.floor(next() * pieces.length)]).join(
      '',
    ),
  );
}

describe('the token route form reader', () => {
  const app = readers();
  const read = (path: string, body: string, type = FORM) =>
    request(app).post(path).set('Content-Type', type).send(body);

  it('when a form is sent, then it reads it as the general form reader does (the same body, or the same refusal)', async () => {
    for (const body of [...BODIES, ...generatedBodies(300)]) {
      const [general, token] = await Promise.all([read('/general', body), read('/token', body)]);
      expect({ body, status: token.status, answer: token.body }).toEqual({
        body,
        status: general.status,
        answer: general.body,
      });
    }
  });

  it('when the content type, charset or size is not the usual one, then the general reader decides', async () => {
    const cases: [string, string][] = [
      ['a=1', `${FORM}; charset=ebcdic`],
      ['a=1', `${FORM}; charset=iso-8859-1`],
      ['a=caf%E9', 'Application/X-WWW-Form-Urlencoded'],
      ['{"a":1}', 'application/json'],
      [`a=${'x'.repeat(20_000)}`, FORM],
      [Array.from({ length: 1_001 }, (_, index) => `p${index}=1`).join('&'), FORM],
    ];
    for (const [body, type] of cases) {
      const [general, token] = await Promise.all([read('/general', body, type), read('/token', body, type)]);
      expect({ type, status: token.status, answer: token.body }).toEqual({
        type,
        status: general.status,
        answer: general.body,
      });
    }
  });
});
