import request from 'supertest';
import { RateBook } from '../../../src/modules/currencies/rate-book';
import { ApiTestApp, createTestUser, startApiTestApp } from '../../support/api-test-app';

let api: ApiTestApp;
beforeAll(async () => {
  api = await startApiTestApp();
});
afterAll(() => api.close());

describe('GET /currencies', () => {
  it('when any valid token asks, then the ISO list comes back with precision and type', async () => {
    const user = await createTestUser(api.deps, 'budgets:r');
    const answer = await request(api.app).get('/currencies').set('Authorization', user.auth).expect(200);
    expect(answer.headers['content-type']).toContain('profile=');
    expect(answer.body.length).toBeGreaterThan(150);
    expect(answer.body).toContainEqual({ code: 'JPY', name: 'Yen', precision: 0, type: 'fiat' });
    expect(answer.headers.etag).toBeDefined();
    await request(api.app)
      .get('/currencies')
      .set('Authorization', user.auth)
      .set('If-None-Match', answer.headers.etag)
      .expect(304);
  });

  it('when filtered by codes, types and a date, then each carries its EUR rate of the nearest earlier business day', async () => {
    const user = await createTestUser(api.deps, 'user:r');
    const answer = await request(api.app)
      .get('/currencies?currencies=USD,EUR,SIT&date=2025-05-11')
      .set('Authorization', user.auth)
      .expect(200);
    expect(answer.body).toEqual([
      { code: 'EUR', name: 'Euro', precision: 2, type: 'fiat', rate: { date: '2025-05-11', rate: 1 } },
      // Withdrawn for the euro: its last rate is the fixed conversion rate, and stays the nearest earlier one.
      {
        code: 'SIT',
        name: 'Slovenian Tolar',
        precision: 2,
        type: 'deprecated',
        rate: { date: '2006-12-29', rate: 239.64 },
      },
      {
        code: 'USD',
        name: 'US Dollar',
        precision: 2,
        type: 'fiat',
        rate: { date: '2025-05-09', rate: 1.1252 },
      },
    ]);
    const deprecated = await request(api.app)
      .get('/currencies?types=deprecated&date=2006-06-30')
      .set('Authorization', user.auth)
      .expect(200);
    expect(deprecated.body).toContainEqual(
      expect.objectContaining({ code: 'SIT', rate: { date: '2006-06-30', rate: 239.63 } }),
    );
    const one = await request(api.app).get('/currencies/GBP').set('Authorization', user.auth).expect(200);
    expect(one.body).toMatchObject({ code: 'GBP', precision: 2 });
  });

  it('when the request is bad or unauthenticated, then 400, 404 or 401', async () => {
    const user = await createTestUser(api.deps, 'user:r');
    expect(
      (await request(api.app).get('/currencies?date=2025-02-30').set('Authorization', user.auth).expect(400))
        .body.fields[0].field,
    ).toBe('date');
    expect(
      (await request(api.app).get('/currencies?types=paper').set('Authorization', user.auth).expect(400)).body
        .fields[0].field,
    ).toBe('types');
    await request(api.app).get('/currencies/ABC').set('Authorization', user.auth).expect(404);
    await request(api.app).get('/currencies').expect(401);
  });
});

describe('rate book at start', () => {
  it('when the table lacks the shipped history, then start imports it; a second start imports nothing more', async () => {
    const book = await new RateBook(api.deps.repos.currencyRates).load();
    expect(book.findRate('USD', '2025-05-09')).toBeUndefined();
    await book.ready();
    expect(book.findRate('USD', '2025-05-09')?.rate.toFixed()).toBe('1.1252');
    const [{ count }] = await api.deps.dataSource.query(
      `SELECT count(*)::int AS count FROM currency_rates WHERE date = '2025-05-09'`,
    );
    await new RateBook(api.deps.repos.currencyRates).load();
    const [{ count: again }] = await api.deps.dataSource.query(
      `SELECT count(*)::int AS count FROM currency_rates WHERE date = '2025-05-09'`,
    );
    expect(again).toBe(count);
  });
});
