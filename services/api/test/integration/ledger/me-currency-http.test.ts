import { convertAmount, Decimal, findCrossRate, RateTable, roundToCurrency } from '@pfs/money';
import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTag,
  createTestUser,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';
import { loadShippedRates } from '../../support/ledger-fixture';
import { entriesTable } from '@pfs/resource-store';
import { balanceOf, postAccount, postEntry } from './ledger-http';
import { budgetBody, postBudget } from '../budgets/budgets-http';

let api: ApiTestApp;
let rates: RateTable;
beforeAll(async () => {
  api = await startApiTestApp();
  rates = await loadShippedRates();
});
afterAll(() => api.close());

const get = (user: TestUser, path: string) => request(api.app).get(path).set('Authorization', user.auth);
const today = () => new Date().toISOString().slice(0, 10);
const cross = (from: string, to: string, date: string) => findCrossRate(rates, from, to, date)!;
const half12 = (value: Decimal) => value.toDecimalPlaces(12, Decimal.ROUND_HALF_EVEN);
const num = (value: Decimal) => Number(value.toFixed());

/** GET /me, then PUT it back with `currency` replaced. */
async function putCurrency(user: TestUser, currency: Record<string, unknown>, expected = 200) {
  const me = (await get(user, '/me').expect(200)).body;
  return request(api.app)
    .put('/me')
    .set('Authorization', user.auth)
    .send({ ...me, currency })
    .expect(expected);
}

async function entry(user: TestUser, id: string) {
  return (await get(user, `/entries/${id}`).expect(200)).body;
}

async function account(user: TestUser, id: string) {
  return (await get(user, `/accounts/${id}`).expect(200)).body;
}

/**
 * A EUR user: Cash (EUR, initial 1000) with a EUR and a GBP expense, Dollars (USD) with a USD expense,
 * on three dates with different ECB rates.
 */
async function seedLedger(user: TestUser) {
  const category = await createCategory(api.app, user, { name: 'Any', type: 'expense' });
  const cash = await postAccount(api.app, user, {
    name: 'Cash',
    currency: { code: 'EUR' },
    initial_balance: 1000,
    limit: 333.33,
  });
  const dollars = await postAccount(api.app, user, { name: 'Dollars', currency: { code: 'USD' } });
  const post = (amount: number, code: string, date: string, account: string) =>
    postEntry(api.app, user, { amount, currency: { code }, date, account, category });
  return {
    category,
    cash,
    dollars,
    eur: await post(-100.35, 'EUR', '2025-05-02', cash),
    gbp: await post(-20.17, 'GBP', '2024-12-31', cash),
    usd: await post(-50.5, 'USD', '2025-03-14', dollars),
  };
}

/** The summary of the seeded period in the user's main currency, computed here from the shipped rates. */
function expectedExpenses(
  main: string,
  convert = (amount: string, from: string, date: string) =>
    convertAmount(rates, { amount, from, to: main, date })!,
) {
  return [
    convert('-100.35', 'EUR', '2025-05-02'),
    convert('-20.17', 'GBP', '2024-12-31'),
    convert('-50.5', 'USD', '2025-03-14'),
  ]
    .reduce((sum, value) => sum.plus(value), new Decimal(0))
    .negated(); // expense sums are magnitudes (docs/money.md "Signs")
}

const summaryPath = '/me/summary?from=2024-12-01&to=2025-05-31';

describe('PUT /me currency.update historical (the default)', () => {
  it('when main changes without update_accounts, then entries and accounts stay, and main_rate, sums and the summary use the ECB rate of each date', async () => {
    const user = await createTestUser(api.deps);
    const seed = await seedLedger(user);
    const before = await entry(user, seed.eur);
    const put = await putCurrency(user, { main: 'USD' });
    expect(put.body.currency).toEqual({ main: 'USD', recent: [{ code: 'EUR' }] });
    const after = await entry(user, seed.eur);
    expect(after.modified).toBe(before.modified);
    expect(after.currency).toEqual({ ...before.currency, main_rate: num(cross('EUR', 'USD', '2025-05-02')) });
    expect((await entry(user, seed.gbp)).currency.main_rate).toBe(num(cross('GBP', 'USD', '2024-12-31')));
    expect((await entry(user, seed.usd)).currency.main_rate).toBe(1);
    expect((await account(user, seed.cash)).currency).toEqual({ code: 'EUR' });
    const summary = await get(user, summaryPath).expect(200);
    expect(summary.body.currency).toEqual({ code: 'USD' });
    expect(summary.body.expenses.sum).toBe(num(expectedExpenses('USD')));
  });

  it('when update_accounts is true, then accounts in the old main move to the new one: initial balance at the latest rate, each entry re-rated with its own date, half-even', async () => {
    const user = await createTestUser(api.deps);
    const other = await createTestUser(api.deps);
    const otherSeed = await seedLedger(other);
    const otherCash = await account(other, otherSeed.cash);
    const otherEur = await entry(other, otherSeed.eur);
    const seed = await seedLedger(user);
    const gbpBefore = await entry(user, seed.gbp);
    const usdBefore = await entry(user, seed.usd);
    const since = (await get(user, '/entries').expect(200)).headers['service-modified'];
    const accountsSince = (await get(user, '/accounts').expect(200)).headers['service-modified'];
    await putCurrency(user, { main: 'USD', update: 'historical', update_accounts: true });

    const latest = cross('EUR', 'USD', today());
    const cash = await account(user, seed.cash);
    expect(cash.currency).toEqual({ code: 'USD' });
    expect(cash.initial_balance).toBe(num(roundToCurrency(new Decimal(1000).times(latest), 'USD')));
    expect(cash.limit).toBe(num(roundToCurrency(new Decimal('333.33').times(latest), 'USD')));

    const eurRate = half12(cross('EUR', 'USD', '2025-05-02'));
    const eurAfter = await entry(user, seed.eur);
    expect(eurAfter.amount).toBe(-100.35);
    expect(eurAfter.currency).toMatchObject({ code: 'EUR', rate: num(eurRate) });
    const gbpRate = half12(
      new Decimal(String(gbpBefore.currency.rate)).times(cross('EUR', 'USD', '2024-12-31')),
    );
    const gbpAfter = await entry(user, seed.gbp);
    expect(gbpAfter.currency).toMatchObject({ code: 'GBP', rate: num(gbpRate) });
    const entriesTotal = roundToCurrency(new Decimal('-100.35').times(eurRate), 'USD').plus(
      roundToCurrency(new Decimal('-20.17').times(gbpRate), 'USD'),
    );
    expect(cash.balance).toBe(num(new Decimal(cash.initial_balance).plus(entriesTotal)));
    // The USD account and its entry were not in the old main currency: untouched.
    expect(await entry(user, seed.usd)).toEqual({
      ...usdBefore,
      currency: { ...usdBefore.currency, main_rate: 1 },
    });
    expect((await account(user, seed.dollars)).currency).toEqual({ code: 'USD' });

    // Sync: the re-rated entries and the moved account come back with `since`.
    const changed = await get(user, `/entries?since=${encodeURIComponent(since)}`).expect(200);
    expect(changed.body.map((item: { id: string }) => item.id).sort()).toEqual([seed.eur, seed.gbp].sort());
    const accounts = await get(user, `/accounts?since=${encodeURIComponent(accountsSince)}`).expect(200);
    expect(accounts.body.map((item: { id: string }) => item.id)).toEqual([seed.cash]);

    // The other user's ledger is untouched.
    expect(await account(other, otherSeed.cash)).toEqual(otherCash);
    expect(await entry(other, otherSeed.eur)).toEqual(otherEur);
    expect((await get(other, '/me')).body.currency.main).toBe('EUR');
  });

  it('when an entry of a moving account predates every ECB rate, then 400 naming currency.main and nothing changed', async () => {
    const user = await createTestUser(api.deps);
    const seed = await seedLedger(user);
    await postEntry(api.app, user, {
      amount: -1,
      currency: { code: 'EUR' },
      date: '1998-06-01',
      account: seed.cash,
      category: seed.category,
    });
    const meBefore = (await get(user, '/me')).body;
    const cashBefore = await account(user, seed.cash);
    const eurBefore = await entry(user, seed.eur);
    const failed = await putCurrency(user, { main: 'USD', update_accounts: true }, 400);
    expect(failed.body.fields).toEqual([
      {
        field: 'currency.main',
        error: 'no exchange rate from EUR to USD on 1998-06-01; use currency.update custom',
      },
    ]);
    expect((await get(user, '/me')).body).toEqual(meBefore);
    expect(await account(user, seed.cash)).toEqual(cashBefore);
    expect(await entry(user, seed.eur)).toEqual(eurBefore);
  });
});

describe('PUT /me update_accounts and repeating entries', () => {
  it('when accounts move to the new main, then client-chosen rates of repeating templates follow, as balances do', async () => {
    const user = await createTestUser(api.deps);
    const seed = await seedLedger(user);
    const repeating = (extra: Record<string, unknown>) =>
      postEntry(api.app, user, {
        amount: -100,
        date: '2030-01-05',
        account: seed.cash,
        category: seed.category,
        repeat: { start: '2030-01-05', frequency: 'monthly', interval: 1 },
        ...extra,
      });
    await repeating({ currency: { code: 'GBP', rate: 1.15 } });
    await repeating({ currency: { code: 'USD', rate: 0.9 } });
    await repeating({ currency: { code: 'GBP' } });
    await putCurrency(user, { main: 'USD', update_accounts: true });
    const planned = (await get(user, '/entries?from=2030-02-01&to=2030-02-28&expand=true').expect(200)).body
      .filter((item: { planned?: boolean }) => item.planned)
      .map((item: { currency: { code: string; rate: number } }) => [item.currency.code, item.currency.rate]);
    const factor = cross('EUR', 'USD', today());
    expect(planned).toEqual(
      expect.arrayContaining([
        ['GBP', num(half12(new Decimal('1.15').times(factor)))],
        ['USD', 1],
        ['GBP', num(cross('GBP', 'USD', '2030-02-05'))],
      ]),
    );
    expect(planned).toHaveLength(3);
  });
});

describe('PUT /me conversions out of range', () => {
  it('when update_accounts would give amounts too large to store, then 400 naming currency.main and nothing changed', async () => {
    const user = await createTestUser(api.deps);
    const category = await createCategory(api.app, user, { name: 'Any', type: 'expense' });
    const cash = await postAccount(api.app, user, { name: 'Cash', currency: { code: 'EUR' } });
    await postEntry(api.app, user, {
      amount: 999_999_999_999_999,
      currency: { code: 'EUR' },
      date: '2025-05-02',
      account: cash,
      category,
    });
    // TRL (withdrawn) keeps its last ECB rate, about 1.9 million per euro.
    const refused = await putCurrency(user, { main: 'TRL', update_accounts: true }, 400);
    expect(refused.body.fields).toEqual([
      {
        field: 'currency.main',
        error: 'converting the accounts from EUR to TRL gives amounts or rates out of range',
      },
    ]);
    expect((await account(user, cash)).currency).toEqual({ code: 'EUR' });
    expect((await get(user, '/me')).body.currency.main).toBe('EUR');
  });
});

describe('PUT /me currency.update custom', () => {
  it('when custom_exchange_rate is missing or not positive, then 400 naming it and nothing changes', async () => {
    const user = await createTestUser(api.deps);
    const missing = await putCurrency(user, { main: 'USD', update: 'custom' }, 400);
    expect(missing.body.fields).toEqual([
      { field: 'currency.custom_exchange_rate', error: 'is required when currency.update is custom' },
    ]);
    const negative = await putCurrency(
      user,
      { main: 'USD', update: 'custom', custom_exchange_rate: -2 },
      400,
    );
    expect(negative.body.fields[0].field).toBe('currency.custom_exchange_rate');
    const zero = await putCurrency(user, { main: 'USD', update: 'custom', custom_exchange_rate: 0 }, 400);
    expect(zero.body.fields[0].field).toBe('currency.custom_exchange_rate');
    const bad = await putCurrency(user, { main: 'USD', update: 'later' }, 400);
    expect(bad.body.fields[0].field).toContain('update');
    expect((await get(user, '/me')).body.currency).toEqual({ main: 'EUR' });
  });

  it('when the rate is given without update_accounts, then it is stored and main_rate, sums and the summary use it for the old↔new pair', async () => {
    const user = await createTestUser(api.deps);
    const seed = await seedLedger(user);
    const put = await putCurrency(user, { main: 'USD', update: 'custom', custom_exchange_rate: 1.2 });
    const stored = { code: 'EUR', rate: 1.2, fixed: true, reference_currency: 'USD' };
    expect(put.body.currency).toEqual({ main: 'USD', recent: [stored], custom: [stored] });
    expect((await entry(user, seed.eur)).currency.main_rate).toBe(1.2);
    expect((await entry(user, seed.gbp)).currency.main_rate).toBe(num(cross('GBP', 'USD', '2024-12-31')));
    expect((await account(user, seed.cash)).currency).toEqual({ code: 'EUR' });
    const expected = expectedExpenses('USD', (amount, from, date) =>
      from === 'EUR'
        ? roundToCurrency(new Decimal(amount).times('1.2'), 'USD')
        : convertAmount(rates, { amount, from, to: 'USD', date })!,
    );
    const summary = await get(user, summaryPath).expect(200);
    expect(summary.body.expenses.sum).toBe(num(expected));
    const sums = await get(user, '/entries/sums?from=2025-05-02&to=2025-05-02&currency=USD').expect(200);
    expect(sums.body[0].expenses.sum).toBe(num(roundToCurrency(new Decimal('100.35').times('1.2'), 'USD')));
    // The inverse pair uses the inverse rate: sums in EUR of the USD entry.
    const inEur = await get(user, '/entries/sums?from=2025-03-14&to=2025-03-14&currency=EUR');
    expect(inEur.body[0].expenses.sum).toBe(
      num(
        roundToCurrency(
          new Decimal('50.5').times(new Decimal(1).dividedBy('1.2').toSignificantDigits(12)),
          'EUR',
        ),
      ),
    );
    // Back to EUR with the default (historical): the custom pair is dropped, the ECB history applies again.
    const back = await putCurrency(user, { main: 'EUR' });
    expect(back.body.currency).toEqual({ main: 'EUR', recent: [{ code: 'USD' }] });
    expect((await entry(user, seed.usd)).currency.main_rate).toBe(num(cross('USD', 'EUR', '2025-03-14')));
  });

  it('when update_accounts is true, then the accounts move with the custom rate, the initial balance and every entry converted half-even', async () => {
    const user = await createTestUser(api.deps);
    const seed = await seedLedger(user);
    const gbpBefore = await entry(user, seed.gbp);
    await putCurrency(user, {
      main: 'USD',
      update: 'custom',
      custom_exchange_rate: '1.2345',
      update_accounts: true,
    });
    const cash = await account(user, seed.cash);
    expect(cash.currency).toEqual({ code: 'USD' });
    expect(cash.initial_balance).toBe(1234.5);
    // 333.33 × 1.2345 = 411.495885 → 411.50
    expect(cash.limit).toBe(411.5);
    expect((await entry(user, seed.eur)).currency).toMatchObject({
      code: 'EUR',
      rate: 1.2345,
      main_rate: 1.2345,
    });
    const gbpRate = half12(new Decimal(String(gbpBefore.currency.rate)).times('1.2345'));
    expect((await entry(user, seed.gbp)).currency.rate).toBe(num(gbpRate));
    // -100.35 × 1.2345 = -123.882075 → -123.88
    const total = new Decimal('-123.88').plus(roundToCurrency(new Decimal('-20.17').times(gbpRate), 'USD'));
    expect(cash.balance).toBe(num(new Decimal('1234.5').plus(total)));
  });
});

describe('PUT /me currency.update sign', () => {
  it('when the old main was wrong, then its accounts and entries (transfers too) are relabelled in one step, amounts unchanged, with sync and revisions kept right', async () => {
    const user = await createTestUser(api.deps);
    const other = await createTestUser(api.deps);
    const otherSeed = await seedLedger(other);
    const otherEntry = await entry(other, otherSeed.eur);
    const seed = await seedLedger(user);
    const bank = await postAccount(api.app, user, { name: 'Bank', currency: { code: 'GBP' } });
    const transfer = await postEntry(api.app, user, {
      amount: -40,
      currency: { code: 'EUR' },
      date: '2025-05-02',
      account: seed.cash,
      category: seed.category,
      transaction: { account: bank },
      extra: { note: 'kept' },
    });
    const companionId = (await entry(user, transfer)).transaction.id;
    const companionBefore = await entry(user, companionId);
    const gbpBefore = await entry(user, seed.gbp);
    const cashBefore = await account(user, seed.cash);
    const bankBefore = await account(user, bank);
    const since = (await get(user, '/entries').expect(200)).headers['service-modified'];
    const accountsSince = (await get(user, '/accounts').expect(200)).headers['service-modified'];

    const put = await putCurrency(user, { main: 'USD', update: 'sign', update_accounts: false });
    expect(put.body.currency).toEqual({ main: 'USD' });

    const cash = await account(user, seed.cash);
    expect(cash).toMatchObject({ currency: { code: 'USD' }, initial_balance: 1000, limit: 333.33 });
    expect(cash.balance).toBe(cashBefore.balance);
    expect(cash.modified).not.toBe(cashBefore.modified);
    expect((await account(user, bank)).balance).toBe(bankBefore.balance);
    expect((await entry(user, seed.eur)).currency).toMatchObject({ code: 'USD', rate: 1, main_rate: 1 });
    expect((await entry(user, seed.eur)).amount).toBe(-100.35);
    const moved = await entry(user, transfer);
    expect(moved).toMatchObject({
      amount: -40,
      currency: { code: 'USD', rate: 1 },
      account: seed.cash,
      transaction: { id: companionId, account: bank, amount: 40, currency: { code: 'USD' } },
      extra: { note: 'kept' },
    });
    const companion = await entry(user, companionId);
    expect(companion).toMatchObject({
      amount: 40,
      account: bank,
      currency: { code: 'USD', rate: companionBefore.currency.rate },
      transaction: { id: transfer },
    });
    // Neither the GBP entry of Cash (its rate to the account stays) nor the USD entry changed.
    expect(await entry(user, seed.gbp)).toEqual({
      ...gbpBefore,
      currency: { ...gbpBefore.currency, main_rate: num(cross('GBP', 'USD', '2024-12-31')) },
    });

    const changed = await get(user, `/entries?since=${encodeURIComponent(since)}`).expect(200);
    expect(changed.body.map((item: { id: string }) => item.id).sort()).toEqual(
      [seed.eur, transfer, companionId].sort(),
    );
    const accounts = await get(user, `/accounts?since=${encodeURIComponent(accountsSince)}`).expect(200);
    expect(accounts.body.map((item: { id: string }) => item.id)).toEqual([seed.cash]);

    // Each relabelled row has a revision at its new modified: a write based on it merges, and the bulk
    // snapshot equals the one a single write records.
    const [revision] = await api.deps.dataSource.query(
      `SELECT r.snapshot FROM resource_revisions r JOIN entries e ON e.id = r.object_id AND e.modified_at = r.modified_at
       WHERE r.kind = 'entries' AND e.id = $1`,
      [transfer],
    );
    expect(revision.snapshot).toEqual({
      amount: '-40',
      currency: { code: 'USD', rate: '1', fixed: false },
      date: '2025-05-02',
      account: seed.cash,
      category: seed.category,
      completed: false,
      transaction: { id: companionId },
      extra: { note: 'kept' },
      account_amount: '-40',
    });
    await request(api.app)
      .patch(`/entries/${seed.eur}`)
      .set('Authorization', user.auth)
      .send({ modified: (await entry(user, seed.eur)).modified, desc: 'fixed label' })
      .expect(200);

    // Another user's EUR ledger is untouched.
    expect(await entry(other, otherSeed.eur)).toEqual(otherEntry);
    expect((await account(other, otherSeed.cash)).currency).toEqual({ code: 'EUR' });
  });

  it('when the old main was wrong, then budgets and the templates of repeating entries in it are relabelled too', async () => {
    const user = await createTestUser(api.deps);
    const seed = await seedLedger(user);
    const bank = await postAccount(api.app, user, { name: 'Bank', currency: { code: 'GBP' } });
    const budget = await postBudget(api.app, user, budgetBody({ limit: 250, currency: { code: 'EUR' } }));
    const pounds = await postBudget(api.app, user, budgetBody({ limit: 90, currency: { code: 'GBP' } }));
    const before = (await get(user, `/budgets/${budget}`).expect(200)).body;
    const budgetsSince = (await get(user, '/budgets?from=2030-01-01&to=2030-01-31').expect(200)).headers[
      'service-modified'
    ];
    const repeating = (extra: Record<string, unknown>) =>
      postEntry(api.app, user, {
        amount: -20,
        currency: { code: 'EUR' },
        date: '2030-01-10',
        account: seed.cash,
        category: seed.category,
        repeat: { start: '2030-01-10', frequency: 'monthly', interval: 1 },
        ...extra,
      });
    await repeating({});
    await repeating({ transaction: { account: bank, amount: 17, currency: { code: 'EUR' } } });

    await putCurrency(user, { main: 'USD', update: 'sign' });

    const after = (await get(user, `/budgets/${budget}`).expect(200)).body;
    expect(after).toMatchObject({ currency: { code: 'USD' }, limit: 250 });
    expect(after.modified).not.toBe(before.modified);
    expect((await get(user, `/budgets/${pounds}`).expect(200)).body.currency.code).toBe('GBP');
    const synced = await get(
      user,
      `/budgets?from=2030-01-01&to=2030-01-31&since=${encodeURIComponent(budgetsSince)}`,
    ).expect(200);
    expect(synced.body.map((item: { id: string }) => item.id)).toEqual([budget]);
    const templates = await api.deps.dataSource.query(
      `SELECT template FROM repeats WHERE user_id = $1 ORDER BY id`,
      [user.userId],
    );
    expect(
      templates.map((row: { template: { currency: { code: string } } }) => row.template.currency.code),
    ).toEqual(['USD', 'USD']);
    expect(templates[1].template.transaction.currency.code).toBe('USD');
    const planned = (await get(user, '/entries?from=2030-02-01&to=2030-02-28&expand=true').expect(200)).body;
    expect(planned.map((item: { currency: { code: string } }) => item.currency.code)).toEqual(['USD', 'USD']);
  });

  it('when rows are re-rated in bulk, then each revision equals the snapshot a single write records', async () => {
    const user = await createTestUser(api.deps);
    const seed = await seedLedger(user);
    const tag = await createTag(api.app, user, { name: 'lunch', type: 'expense' });
    const image = async () =>
      (
        await api.deps.dataSource.query(
          `INSERT INTO images (user_id, type, status, content_type, storage_prefix, modified_at, change_seq)
           VALUES ($1, 'image', 'uploaded', 'image/jpeg', 'images/test', now(), 0) RETURNING id::text AS id`,
          [user.userId],
        )
      )[0].id as string;
    const images = [await image(), await image()].reverse();
    const full = await postEntry(api.app, user, {
      amount: -12.5,
      currency: { code: 'GBP', rate: 1.18, fixed: true },
      date: '2025-05-02',
      desc: 'all fields',
      account: seed.cash,
      category: seed.category,
      tags: [tag],
      location: { id: '77', latitude: 46, longitude: 14.5 },
      reminders: [{ period: 'day', number: 1, at: '09:00:00' }],
      completed: true,
      images: images.map((id) => ({ id })),
      extra: { app: 'data' },
    });
    await putCurrency(user, {
      main: 'USD',
      update: 'custom',
      custom_exchange_rate: 1.1,
      update_accounts: true,
    });
    for (const id of [full, seed.eur]) {
      const record = await entriesTable.findById(
        api.deps.store.read({ userId: user.userId, app: 'test-client' }),
        id,
      );
      const [revision] = await api.deps.dataSource.query(
        `SELECT snapshot FROM resource_revisions WHERE kind = 'entries' AND object_id = $1 AND modified_at = $2`,
        [id, record!.modifiedAt],
      );
      expect(revision.snapshot).toEqual(JSON.parse(JSON.stringify(entriesTable.options.toSnapshot(record!))));
    }
    // 1.18 × 1.1 = 1.298; -12.5 × 1.298 = -16.225 → -16.22 (half-even)
    expect((await entry(user, full)).currency).toMatchObject({ code: 'GBP', rate: 1.298, fixed: true });
    const [row] = await api.deps.dataSource.query(`SELECT account_amount::text FROM entries WHERE id = $1`, [
      full,
    ]);
    expect(new Decimal(row.account_amount).toFixed()).toBe('-16.22');
  });

  it('when the profile write fails after the relabel, then the whole change rolls back', async () => {
    // A real failure late in the transaction: a trigger refuses this one profile write.
    await api.deps.dataSource.query(`
      CREATE OR REPLACE FUNCTION refuse_boom() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.first_name = 'boom' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`);
    await api.deps.dataSource.query(
      `CREATE OR REPLACE TRIGGER refuse_boom BEFORE UPDATE ON users FOR EACH ROW EXECUTE FUNCTION refuse_boom()`,
    );
    try {
      const user = await createTestUser(api.deps);
      const seed = await seedLedger(user);
      const eurBefore = await entry(user, seed.eur);
      const cashBefore = await account(user, seed.cash);
      const me = (await get(user, '/me')).body;
      await request(api.app)
        .put('/me')
        .set('Authorization', user.auth)
        .send({ ...me, first_name: 'boom', currency: { main: 'USD', update: 'sign' } })
        .expect(500);
      expect(await entry(user, seed.eur)).toEqual(eurBefore);
      expect(await account(user, seed.cash)).toEqual(cashBefore);
      expect((await get(user, '/me')).body).toEqual(me);
      const [revisions] = await api.deps.dataSource.query(
        `SELECT count(*)::int AS count FROM resource_revisions WHERE user_id = $1 AND kind = 'entries'`,
        [user.userId],
      );
      expect(revisions.count).toBe(3);
    } finally {
      await api.deps.dataSource.query(`DROP TRIGGER refuse_boom ON users`);
    }
  });

  it('when the modified is stale, then 409 and nothing is relabelled', async () => {
    const user = await createTestUser(api.deps);
    const seed = await seedLedger(user);
    const me = (await get(user, '/me')).body;
    await request(api.app)
      .put('/me')
      .set('Authorization', user.auth)
      .send({ ...me, first_name: 'X' })
      .expect(200);
    await request(api.app)
      .put('/me')
      .set('Authorization', user.auth)
      .send({ ...me, currency: { main: 'USD', update: 'sign' } })
      .expect(409);
    expect((await entry(user, seed.eur)).currency.code).toBe('EUR');
    expect((await account(user, seed.cash)).currency.code).toBe('EUR');
    expect(await balanceOf(api.app, user, seed.cash)).toBe((await account(user, seed.cash)).balance);
  });
});

describe('GET /me and currency.custom', () => {
  it('when custom rates are set, listed and removed, then main_rate follows; limits are shown', async () => {
    const user = await createTestUser(api.deps);
    const seed = await seedLedger(user);
    const set = await putCurrency(user, { main: 'EUR', custom: { code: 'GBP', rate: 1.5, fixed: 'false' } });
    expect(set.body.currency).toEqual({
      main: 'EUR',
      custom: [{ code: 'GBP', rate: 1.5, fixed: false, reference_currency: 'EUR' }],
    });
    expect(set.body.limits).toEqual({ accounts: false, budgets: false, images: false });
    expect((await entry(user, seed.gbp)).currency.main_rate).toBe(1.5);
    // Sending the fetched object back (custom as the array GET shows) changes nothing.
    const me = (await get(user, '/me')).body;
    const again = await request(api.app).put('/me').set('Authorization', user.auth).send(me).expect(200);
    expect(again.body.currency).toEqual(set.body.currency);
    const bad = await putCurrency(user, { main: 'EUR', custom: { code: 'EUR', rate: 2 } }, 400);
    expect(bad.body.fields).toEqual([
      { field: 'currency.custom', error: 'code and reference_currency must differ' },
    ]);
    const badRate = await putCurrency(user, { main: 'EUR', custom: [{ code: 'USD', rate: 'x' }] }, 400);
    expect(badRate.body.fields[0].field).toBe('currency.custom.0.rate');
    const removed = await putCurrency(user, { main: 'EUR', custom: { code: 'GBP', rate: 0 } });
    expect(removed.body.currency).toEqual({ main: 'EUR' });
    expect((await entry(user, seed.gbp)).currency.main_rate).toBe(num(cross('GBP', 'EUR', '2024-12-31')));
  });

  it('when the main currency changes several times, then recent lists the previous ones, latest first', async () => {
    const user = await createTestUser(api.deps);
    for (const main of ['USD', 'GBP', 'EUR', 'JPY']) await putCurrency(user, { main });
    const me = (await get(user, '/me').expect(200)).body;
    expect(me.currency).toEqual({ main: 'JPY', recent: [{ code: 'EUR' }, { code: 'GBP' }, { code: 'USD' }] });
  });
});

describe('pfs_round_half_even', () => {
  it('when values are rounded in SQL, then they equal decimal.js half-even', async () => {
    const values = [
      '2.345',
      '2.355',
      '-2.345',
      '-2.355',
      '0.5',
      '1.5',
      '-0.5',
      '123.4565',
      '-0.0000000000005',
      '7',
    ];
    for (const places of [0, 2, 3, 12]) {
      const rows: Array<{ rounded: string }> = await api.deps.dataSource.query(
        `SELECT pfs_round_half_even(v::numeric, $2)::text AS rounded FROM unnest($1::text[]) WITH ORDINALITY AS t (v, i) ORDER BY i`,
        [values, places],
      );
      expect(rows.map((row) => new Decimal(row.rounded).toFixed())).toEqual(
        values.map((value) => new Decimal(value).toDecimalPlaces(places, Decimal.ROUND_HALF_EVEN).toFixed()),
      );
    }
  });
});
