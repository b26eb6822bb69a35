import { convertAmount, Decimal } from '@pfs/money';
import fc from 'fast-check';
import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTestUser,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';
import { loadShippedRates } from '../../support/ledger-fixture';
import { balanceOf, postAccount } from './ledger-http';

let api: ApiTestApp;
beforeAll(async () => {
  api = await startApiTestApp();
});
afterAll(() => api.close());

async function setUp() {
  const user = await createTestUser(api.deps);
  const category = await createCategory(api.app, user, { name: 'Any', type: 'expense' });
  const eur = await postAccount(api.app, user, { name: 'EUR', currency: { code: 'EUR' } });
  const usd = await postAccount(api.app, user, { name: 'USD', currency: { code: 'USD' } });
  return { user, category, eur, usd };
}

const sums = (user: TestUser, query: string) =>
  request(api.app).get(`/entries/sums?${query}`).set('Authorization', user.auth);

describe('GET /entries/sums', () => {
  it('when entries fall on several days, then day, week and month ranges add them up, transfers left out', async () => {
    const { user, category, eur, usd } = await setUp();
    const body = [
      { amount: -10, date: '2025-05-05' },
      { amount: -2.5, date: '2025-05-05' },
      { amount: 100, date: '2025-05-06' },
      { amount: -1, date: '2025-05-12' },
      { amount: -7, date: '2025-05-06', transaction: { account: usd } },
    ].map((item) => ({ ...item, currency: { code: 'EUR' }, account: eur, category }));
    await request(api.app).post('/entries').set('Authorization', user.auth).send(body).expect(201);
    const day = await sums(user, 'from=2025-05-01&to=2025-05-31&currency=EUR').expect(200);
    // Expense sums are magnitudes (docs/money.md "Signs"); each row carries the latest modified of its entries.
    const modified = expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(day.body).toEqual([
      { day: '2025-05-05', expenses: { sum: 12.5, count: 2 }, incomes: { sum: 0, count: 0 }, modified },
      { day: '2025-05-06', expenses: { sum: 0, count: 0 }, incomes: { sum: 100, count: 1 }, modified },
      { day: '2025-05-12', expenses: { sum: 1, count: 1 }, incomes: { sum: 0, count: 0 }, modified },
    ]);
    const week = await sums(user, 'from=2025-05-01&to=2025-05-31&currency=EUR&range=week').expect(200);
    expect(week.body.map((item: { day: string }) => item.day)).toEqual(['2025-05-05', '2025-05-12']);
    const month = await sums(
      user,
      'from=2025-05-01&to=2025-05-31&currency=EUR&range=month&type=expense',
    ).expect(200);
    expect(month.body).toEqual([
      { day: '2025-05-01', expenses: { sum: 13.5, count: 3 }, incomes: { sum: 0, count: 0 }, modified },
    ]);
  });

  it('when another currency is asked, then each day converts with its ECB rate', async () => {
    const { user, category, eur } = await setUp();
    await request(api.app)
      .post('/entries')
      .set('Authorization', user.auth)
      .send({ amount: -100, currency: { code: 'EUR' }, date: '2025-05-09', account: eur, category })
      .expect(201);
    const answer = await sums(user, 'from=2025-05-01&to=2025-05-31&currency=USD').expect(200);
    expect(answer.body[0].expenses).toEqual({ sum: 112.52, count: 1 });
  });

  it('when parameters are missing or bad, then 400 names them', async () => {
    const { user } = await setUp();
    expect((await sums(user, 'to=2025-05-31&currency=EUR').expect(400)).body.fields[0].field).toBe('from');
    expect((await sums(user, 'from=2025-05-01&to=2025-05-31').expect(400)).body.fields[0].field).toBe(
      'currency',
    );
    expect(
      (await sums(user, 'from=2025-05-01&to=2025-05-31&currency=ABC').expect(400)).body.fields[0].field,
    ).toBe('currency');
    expect(
      (await sums(user, 'from=2025-05-01&to=2025-05-31&currency=EUR&range=year').expect(400)).body.fields[0]
        .field,
    ).toBe('range');
  });
});

describe('sums and balances, property-based over HTTP', () => {
  it('when any entries and transfers are posted, then balances and sums equal a reference computation', async () => {
    const rates = await loadShippedRates();
    const item = fc.record({
      cents: fc.integer({ min: -100_000, max: 100_000 }).filter((value) => value !== 0),
      day: fc.integer({ min: 1, max: 28 }),
      currency: fc.constantFrom('EUR', 'USD', 'GBP'),
      toUsd: fc.boolean(),
      transfer: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(item, { minLength: 1, maxLength: 15 }),
        fc.constantFrom('day', 'week', 'month'),
        async (items, range) => {
          const { user, category, eur, usd } = await setUp();
          const body = items.map((it) => ({
            amount: it.cents / 100,
            currency: { code: it.currency },
            date: `2025-03-${String(it.day).padStart(2, '0')}`,
            account: it.toUsd ? usd : eur,
            category,
            ...(it.transfer ? { transaction: { account: it.toUsd ? eur : usd } } : {}),
          }));
          await request(api.app).post('/entries').set('Authorization', user.auth).send(body).expect(201);

          // Reference: every entry converted at its own date into each account (transfers on both sides).
          const balance = { [eur]: new Decimal(0), [usd]: new Decimal(0) };
          const buckets = new Map<string, Decimal>();
          for (const entry of body) {
            const other = entry.account === eur ? usd : eur;
            const accountCurrency = (id: string) => (id === eur ? 'EUR' : 'USD');
            const own = convertAmount(rates, {
              amount: entry.amount,
              from: entry.currency.code,
              to: accountCurrency(entry.account),
              date: entry.date,
            })!;
            balance[entry.account] = balance[entry.account].plus(own);
            if (entry.transaction) {
              const back = convertAmount(rates, {
                amount: -entry.amount,
                from: entry.currency.code,
                to: accountCurrency(other),
                date: entry.date,
              })!;
              balance[other] = balance[other].plus(back);
              continue;
            }
            const key = `${entry.date}|${entry.currency.code}|${entry.amount < 0 ? 'expense' : 'income'}`;
            buckets.set(key, (buckets.get(key) ?? new Decimal(0)).plus(entry.amount));
          }
          const expected = new Map<string, { expenses: Decimal; incomes: Decimal }>();
          for (const [key, total] of buckets) {
            const [date, currency, kind] = key.split('|');
            const converted = convertAmount(rates, { amount: total, from: currency, to: 'EUR', date })!;
            const d = new Date(`${date}T00:00:00Z`);
            if (range === 'week') d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
            const period = range === 'month' ? '2025-03-01' : d.toISOString().slice(0, 10);
            const slot = expected.get(period) ?? { expenses: new Decimal(0), incomes: new Decimal(0) };
            if (kind === 'expense') slot.expenses = slot.expenses.minus(converted);
            else slot.incomes = slot.incomes.plus(converted);
            expected.set(period, slot);
          }
          expect(await balanceOf(api.app, user, eur)).toBe(balance[eur].toNumber());
          expect(await balanceOf(api.app, user, usd)).toBe(balance[usd].toNumber());
          const answer = await sums(user, `from=2025-03-01&to=2025-03-31&currency=EUR&range=${range}`).expect(
            200,
          );
          const actual = Object.fromEntries(
            answer.body.map((p: { day: string; expenses: { sum: number }; incomes: { sum: number } }) => [
              p.day,
              [p.expenses.sum, p.incomes.sum],
            ]),
          );
          const wanted = Object.fromEntries(
            [...expected].map(([day, s]) => [day, [s.expenses.toNumber(), s.incomes.toNumber()]]),
          );
          expect(actual).toEqual(wanted);
        },
      ),
      { numRuns: 15 },
    );
  });
});
