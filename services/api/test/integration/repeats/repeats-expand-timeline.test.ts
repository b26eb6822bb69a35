import { convertAmount, Decimal } from '@pfs/money';
import request from 'supertest';
import {
  type ApiTestApp,
  createCategory,
  createTag,
  createTestUser,
  startApiTestApp,
} from '../../support/api-test-app';
import { ledgerDepsOf } from '../../../src/ledger-deps';
import { plannedOccurrences } from '../../../src/modules/repeats/planned-occurrences';
import { postEntry } from '../ledger/ledger-http';
import {
  createRepeatUser,
  entryBody,
  listAll,
  type ListedEntry,
  postRepeating,
  type RepeatUser,
} from './repeat-support';

let api: ApiTestApp;
let user: RepeatUser;
beforeAll(async () => {
  api = await startApiTestApp();
});
afterAll(() => api.close());
beforeEach(async () => {
  user = await createRepeatUser(api);
});

const get = (path: string, who: { auth: string } = user) =>
  request(api.app).get(path).set('Authorization', who.auth);

describe('GET /entries?expand=true', () => {
  /** 30 weekly occurrences from 2030-01-07 (after the real today): only iteration 0 is stored. */
  async function futureSeries() {
    await postRepeating(
      api,
      user,
      entryBody(user, {
        date: '2030-01-07',
        repeat: { start: '2030-01-07', frequency: 'weekly', interval: 1, count: 30 },
      }),
    ).expect(201);
    await postEntry(api.app, user, entryBody(user, { date: '2030-02-01', amount: -1 }));
    await postEntry(api.app, user, entryBody(user, { date: '2029-12-31', amount: -2 }));
  }

  it('when expanded, then planned occurrences follow the stored entries and pages, Link and X-Total-Count stay right', async () => {
    await futureSeries();
    const query = 'from=2030-01-01&to=2030-12-31&expand=true';
    const first = await get(`/entries?${query}&per_page=10`).expect(200);
    expect(first.headers['x-total-count']).toBe('31');
    expect(first.headers.link).toContain(`</entries?page=1&per_page=10&${query}>; rel="next"`);
    expect(first.headers.link).toContain(`</entries?page=3&per_page=10&${query}>; rel="last"`);
    const items: ListedEntry[] = [...first.body];
    for (let page = 1; page <= 3; page++) {
      const answer = await get(`/entries?${query}&page=${page}&per_page=10`).expect(200);
      items.push(...answer.body);
    }
    expect(items).toHaveLength(31);
    expect(new Set(items.map((item) => item.id)).size).toBe(31);
    const stored = items.filter((item) => !item.planned);
    const planned = items.filter((item) => item.planned);
    expect(stored.map((item) => item.date).sort()).toEqual(['2030-01-07', '2030-02-01']);
    expect(planned).toHaveLength(29);
    const firstId = stored.find((item) => item.repeat)!.id;
    expect(planned[0]).toMatchObject({
      id: `${firstId}-1`,
      date: '2030-01-14',
      amount: -10,
      currency: { code: 'EUR', rate: 1 },
      planned: true,
      repeat: { iteration: 1, count: 30 },
    });
    expect(planned.map((item) => item.date)).toEqual([...planned.map((item) => item.date)].sort());
    // Nothing planned was stored.
    expect(await listAll(api, user)).toHaveLength(3);
  });

  it('when expand is narrowed by filters or misused, then it filters planned ones too or answers 400', async () => {
    await futureSeries();
    const incomes = await get('/entries?from=2030-01-01&to=2030-12-31&expand=true&type=income').expect(200);
    expect(incomes.body).toEqual([]);
    const march = await get('/entries?from=2030-03-01&to=2030-03-31&expand=true').expect(200);
    expect(march.body.map((item: ListedEntry) => item.date)).toEqual([
      '2030-03-04',
      '2030-03-11',
      '2030-03-18',
      '2030-03-25',
    ]);
    expect((await get('/entries?expand=true&from=2030-01-01').expect(400)).body.fields[0].field).toBe('to');
    const since = await get('/entries?from=2030-01-01&to=2030-02-01&expand=true&since=x').expect(400);
    expect(since.body.fields[0].field).toBe('since');
    const other = await createTestUser(api.deps);
    const theirs = await get('/entries?from=2030-01-01&to=2030-12-31&expand=true', other).expect(200);
    expect(theirs.body).toEqual([]);
  });
});

describe('bounds of expanding repeats', () => {
  it('when the range reaches so far ahead that the rules would expand without bound, then 400 names to; within bounds it answers', async () => {
    for (let i = 0; i < 6; i += 1) {
      await postRepeating(
        api,
        user,
        entryBody(user, {
          date: '2030-01-01',
          repeat: { start: '2030-01-01', frequency: 'daily', interval: 1 },
        }),
      ).expect(201);
    }
    const far = await get('/entries?from=2099-01-01&to=2099-01-31&expand=true').expect(400);
    expect(far.body.fields).toEqual([
      {
        field: 'to',
        error: 'reaches too far ahead for the repeating entries to be expanded; narrow from..to',
      },
    ]);
    const near = await get('/entries?from=2030-02-01&to=2030-02-28&expand=true&per_page=500').expect(200);
    expect(near.headers['x-total-count']).toBe(String(6 * 28));
  });

  it('when the timeline is narrowed to one series and expanded, then only that series is planned in it', async () => {
    await postRepeating(
      api,
      user,
      entryBody(user, {
        date: '2030-01-05',
        amount: -10,
        repeat: { start: '2030-01-05', frequency: 'monthly', interval: 1 },
      }),
    ).expect(201);
    await postRepeating(
      api,
      user,
      entryBody(user, {
        date: '2030-01-05',
        amount: -99,
        repeat: { start: '2030-01-05', frequency: 'monthly', interval: 1 },
      }),
    ).expect(201);
    const series = (await listAll(api, user)).find((entry) => entry.amount === -10)!.repeat.id;
    const timeline = await get(
      `/entries/timeline?from=2030-02-01&to=2030-03-31&type=expense&expand=true&repeat=${series}`,
    ).expect(200);
    expect(timeline.body.map((group: { day: string; sum: number }) => [group.day, group.sum])).toEqual([
      ['2030-02-05', 10],
      ['2030-03-05', 10],
    ]);
  });
});

describe('plannedOccurrences (for summaries)', () => {
  it('when asked for a range, then it answers the planned occurrences with exact amounts, dates and references', async () => {
    const tag = await createTag(api.app, user, { name: 'home', type: 'expense' });
    await postRepeating(
      api,
      user,
      entryBody(user, {
        date: '2030-01-31',
        amount: -0.35,
        tags: [tag],
        repeat: { start: '2030-01-31', frequency: 'monthly', interval: 1, bymonthday: -1, count: 4 },
      }),
    ).expect(201);
    const planned = await plannedOccurrences(
      ledgerDepsOf(api.deps),
      { userId: user.userId },
      {
        from: '2030-02-01',
        to: '2030-03-31',
      },
    );
    expect(
      planned.map((item) => [
        item.date,
        item.amount.toFixed(),
        item.currency,
        item.account,
        item.category,
        item.tags,
      ]),
    ).toEqual([
      ['2030-02-28', '-0.35', 'EUR', user.account, user.category, [tag]],
      ['2030-03-31', '-0.35', 'EUR', user.account, user.category, [tag]],
    ]);
    const other = await createTestUser(api.deps);
    expect(
      await plannedOccurrences(
        ledgerDepsOf(api.deps),
        { userId: other.userId },
        {
          from: '2030-01-01',
          to: '2030-12-31',
        },
      ),
    ).toEqual([]);
  });
});

describe('GET /me/summary sum_planned', () => {
  it('when repeats plan occurrences in the period, then sum_planned adds them (filters kept, transfers left out), in the summary currency', async () => {
    const tag = await createTag(api.app, user, { name: 'home', type: 'expense' });
    const monthly = (extra: Record<string, unknown>) =>
      postRepeating(
        api,
        user,
        entryBody(user, {
          date: '2030-01-15',
          ...extra,
          repeat: { start: '2030-01-15', frequency: 'monthly', interval: 1 },
        }),
      ).expect(201);
    await monthly({ amount: -10.05, tags: [tag] });
    await monthly({ amount: -2.5 });
    await monthly({ amount: 1000 });
    await monthly({ amount: -40, transaction: { account: user.savings } });
    const summary = async (query: string) =>
      (await get(`/me/summary?from=2030-02-01&to=2030-03-31${query}`).expect(200)).body;
    const all = await summary('');
    // Two months of each series: (10.05 + 2.5) × 2 and 1000 × 2 (magnitudes); the transfer moves no money.
    expect(all.expenses.sum_planned).toBe(25.1);
    expect(all.incomes.sum_planned).toBe(2000);
    expect(all.expenses.sum).toBe(0);
    expect((await summary(`&tags=${tag}`)).expenses.sum_planned).toBe(20.1);
    const inUsd = await summary('&currency=USD');
    expect(inUsd.expenses.sum_planned).not.toBe(25.1);
    expect(inUsd.expenses.sum_planned).toBeGreaterThan(0);
    const other = await createTestUser(api.deps);
    expect(
      (await get('/me/summary?from=2030-02-01&to=2030-03-31', other).expect(200)).body.expenses.sum_planned,
    ).toBe(0);
  });
});

describe('GET /entries/timeline', () => {
  let food: string;
  let salary: string;
  const usd = { code: 'USD' };

  beforeEach(async () => {
    food = await createCategory(api.app, user, { name: 'Food', type: 'expense' });
    salary = await createCategory(api.app, user, { name: 'Salary', type: 'income' });
    const here = { latitude: 46.05, longitude: 14.5 };
    await postEntry(
      api.app,
      user,
      entryBody(user, { date: '2025-03-03', amount: -10, category: food, location: here }),
    );
    await postEntry(api.app, user, entryBody(user, { date: '2025-03-03', amount: -5.55 }));
    await postEntry(
      api.app,
      user,
      entryBody(user, { date: '2025-03-04', amount: -20, currency: usd, category: food }),
    );
    await postEntry(
      api.app,
      user,
      entryBody(user, { date: '2025-03-05', amount: -0.1, category: food, location: here }),
    );
    await postEntry(api.app, user, entryBody(user, { date: '2025-03-05', amount: 100, category: salary }));
    await postEntry(
      api.app,
      user,
      entryBody(user, { date: '2025-03-05', amount: -50, transaction: { account: user.savings } }),
    );
    await postEntry(api.app, user, entryBody(user, { date: '2025-04-01', amount: -7 }));
  });

  /** The reference: each entry converted on its own (one entry per day and currency here), added exactly. */
  const eur = (amount: number, code = 'EUR', date = '2025-03-04') =>
    code === 'EUR'
      ? new Decimal(String(amount))
      : convertAmount(api.deps.rates, { amount: String(amount), from: code, to: 'EUR', date })!;

  it('when grouped by day, then each day has its exact EUR sum, count and entries; incomes and transfers stay out', async () => {
    const answer = await get('/entries/timeline?from=2025-03-01&to=2025-03-31&type=expense').expect(200);
    expect(answer.headers['x-total-count']).toBe('3');
    expect(answer.body.map((group: ListedEntry) => [group.day, group.count, group.currency])).toEqual([
      ['2025-03-03', 2, { code: 'EUR' }],
      ['2025-03-04', 1, { code: 'EUR' }],
      ['2025-03-05', 1, { code: 'EUR' }],
    ]);
    // type=expense: sums are magnitudes (docs/money.md "Signs").
    expect(answer.body[0].sum).toBe(15.55);
    expect(answer.body[1].sum).toBe(eur(20, 'USD').toNumber());
    expect(answer.body[2].sum).toBe(0.1);
    expect(answer.body[0].entries.map((entry: ListedEntry) => entry.amount).sort()).toEqual([-10, -5.55]);
    expect(answer.body[1].entries[0]).toMatchObject({
      amount: -20,
      currency: { code: 'USD' },
      category: food,
    });
    const incomes = await get('/entries/timeline?from=2025-03-01&to=2025-03-31&type=income').expect(200);
    expect(incomes.body).toEqual([expect.objectContaining({ day: '2025-03-05', sum: 100, count: 1 })]);
  });

  it('when grouped by category or location, or summed in USD, then the sums follow the same rule', async () => {
    const byCategory = await get(
      '/entries/timeline?from=2025-03-01&to=2025-03-31&type=expense&group=category',
    );
    const foodSum = eur(10).plus(eur(20, 'USD')).plus(eur(0.1));
    expect(byCategory.body.map((group: ListedEntry) => [group.category, group.sum, group.count])).toEqual([
      [food, foodSum.toNumber(), 3],
      [user.category, 5.55, 1],
    ]);
    const byLocation = await get(
      '/entries/timeline?from=2025-03-01&to=2025-03-31&type=expense&group=location',
    );
    expect(byLocation.body).toEqual([
      expect.objectContaining({ location: { latitude: 46.05, longitude: 14.5 }, sum: 10.1, count: 2 }),
    ]);
    const inUsd = await get('/entries/timeline?from=2025-03-04&to=2025-03-04&type=expense&currency=USD');
    expect(inUsd.body).toEqual([expect.objectContaining({ sum: 20, currency: { code: 'USD' } })]);
  });

  it('when a repeating series fills many days, then groups are paged with Link and X-Total-Count', async () => {
    await postRepeating(
      api,
      user,
      entryBody(user, {
        date: '2025-05-01',
        repeat: { start: '2025-05-01', frequency: 'daily', interval: 1, count: 12 },
      }),
    ).expect(201);
    const query = 'from=2025-05-01&to=2025-05-31&type=expense';
    const first = await get(`/entries/timeline?${query}&per_page=10`).expect(200);
    expect(first.headers['x-total-count']).toBe('12');
    expect(first.body).toHaveLength(10);
    expect(first.headers.link).toContain(`</entries/timeline?page=1&per_page=10&${query}>; rel="next"`);
    const second = await get(`/entries/timeline?${query}&page=1&per_page=10`).expect(200);
    expect(second.body.map((group: ListedEntry) => group.day)).toEqual(['2025-05-11', '2025-05-12']);
    expect(second.body[0].entries[0].repeat).toMatchObject({ iteration: 10 });
  });

  it('when expanded, then planned occurrences join their day groups', async () => {
    await postRepeating(
      api,
      user,
      entryBody(user, {
        date: '2030-01-01',
        repeat: { start: '2030-01-01', frequency: 'monthly', interval: 1, count: 3 },
      }),
    ).expect(201);
    const answer = await get(
      '/entries/timeline?from=2030-01-01&to=2030-12-31&type=expense&expand=true',
    ).expect(200);
    expect(
      answer.body.map((group: ListedEntry) => [group.day, group.sum, group.entries[0].planned ?? false]),
    ).toEqual([
      ['2030-01-01', 10, false],
      ['2030-02-01', 10, true],
      ['2030-03-01', 10, true],
    ]);
  });

  it('when parameters break the rules, then 400 names them; another user sees nothing', async () => {
    const base = '/entries/timeline?from=2025-03-01&to=2025-03-31';
    // Without type the timeline holds both kinds (compatibility/budgets-timeline.compat.test.ts).
    await get(base).expect(200);
    expect((await get(`${base}&type=transaction`).expect(400)).body.fields[0].field).toBe('type');
    expect((await get(`${base}&type=expense&group=week`).expect(400)).body.fields[0].field).toBe('group');
    expect((await get(`${base}&type=expense&currency=XXX`).expect(400)).body.fields[0].field).toBe(
      'currency',
    );
    expect((await get('/entries/timeline?to=2025-03-31&type=expense').expect(400)).body.fields[0].field).toBe(
      'from',
    );
    const other = await createTestUser(api.deps);
    expect((await get(`${base}&type=expense`, other).expect(200)).body).toEqual([]);
  });
});
