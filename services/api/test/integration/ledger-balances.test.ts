import { Decimal } from '@pfs/money';
import { accountsTable, entriesTable } from '@pfs/resource-store';
import fc from 'fast-check';
import { deleteAccount } from '../../src/modules/accounts/account-use-cases';
import { deleteEntry } from '../../src/modules/entries/delete-entry.use-case';
import type { EntryBody } from '../../src/modules/entries/entry-body.schema';
import { EntryDraft, entryDraftOf } from '../../src/modules/entries/entry-draft';
import { updateEntry } from '../../src/modules/entries/update-entry.use-case';
import { createLedgerUser, insertCategory, openLedger, type LedgerFixture } from '../support/ledger-fixture';
import { createAccount, createEntries } from '../support/ledger-calls';

let deps: LedgerFixture;
beforeAll(async () => {
  deps = await openLedger();
});
afterAll(() => deps.close());

const draft = (body: Record<string, unknown>): EntryDraft =>
  entryDraftOf({ currency: { code: 'EUR' }, date: '2025-05-09', ...body } as unknown as EntryBody);

/** These writes bypass the HTTP layer and its schema: the states they build are taken as they are. */
const asBody = (state: Record<string, unknown>) => state as unknown as EntryBody;

async function balanceOf(userId: string, accountId: string): Promise<string> {
  const account = (await accountsTable.findById(deps.store.read({ userId: userId }), accountId))!;
  return new Decimal(account.initialBalance).plus(account.entriesTotal).toFixed();
}

async function entryOf(userId: string, id: string) {
  return (await entriesTable.findById(deps.store.read({ userId: userId }), id))!;
}

describe('ledger balances and transfers', () => {
  it('when entries are created, then the balance is the initial balance plus their amounts, exactly', async () => {
    const userId = await createLedgerUser(deps);
    const account = await createAccount(deps, userId, {
      name: 'Cash',
      currency: { code: 'EUR' },
      initial_balance: 100.1,
    });
    await createEntries(
      deps,
      userId,
      [draft({ amount: -0.1, account: account.id }), draft({ amount: 0.2, account: account.id })],
      { fieldsByIndex: true },
    );
    expect(await balanceOf(userId, account.id)).toBe('100.2');
  });

  it('when an entry is in another currency, then the ECB rate of its date converts it into the account currency', async () => {
    const userId = await createLedgerUser(deps);
    const usd = await createAccount(deps, userId, { name: 'US', currency: { code: 'USD' } });
    const [entry] = await createEntries(deps, userId, [
      draft({ amount: -100, account: usd.id, date: '2025-05-11' }),
    ]);
    // Sunday: Friday 2025-05-09's rate, 1 EUR = 1.1252 USD.
    expect(entry).toMatchObject({ rate: '1.1252', accountAmount: '-112.52', amount: '-100' });
    expect(await balanceOf(userId, usd.id)).toBe('-112.52');
  });

  it('when a transfer is created, updated and deleted, then its companion and both balances stay in step', async () => {
    const userId = await createLedgerUser(deps);
    const from = await createAccount(deps, userId, {
      name: 'Bank',
      currency: { code: 'EUR' },
      initial_balance: 1000,
    });
    const to = await createAccount(deps, userId, { name: 'Savings', currency: { code: 'EUR' } });
    const [entry] = await createEntries(deps, userId, [
      draft({ amount: -250, account: from.id, transaction: { account: to.id } }),
    ]);
    const companion = await entryOf(userId, entry.transactionId!);
    expect(companion).toMatchObject({ accountId: to.id, amount: '250', transactionId: entry.id });
    expect([await balanceOf(userId, from.id), await balanceOf(userId, to.id)]).toEqual(['750', '250']);

    await updateEntry(
      deps,
      { userId: userId },
      {
        id: entry.id,
        clientModified: entry.modifiedAt,
        intended: () => ({ ...entriesTable.options.toSnapshot(entry), amount: '-300', desc: 'moved more' }),
        transfer: 'keep',
        parseState: asBody,
        presentCurrent: () => ({}),
      },
    );
    expect(await entryOf(userId, companion.id)).toMatchObject({ amount: '300', description: 'moved more' });
    expect([await balanceOf(userId, from.id), await balanceOf(userId, to.id)]).toEqual(['700', '300']);

    await deleteEntry(deps, { userId: userId }, companion.id);
    expect(await entriesTable.findById(deps.store.read({ userId: userId }), entry.id)).toBeUndefined();
    expect([await balanceOf(userId, from.id), await balanceOf(userId, to.id)]).toEqual(['1000', '0']);
  });

  it('when a PUT drops the transaction, then the companion is deleted and its balance restored', async () => {
    const userId = await createLedgerUser(deps);
    const a = await createAccount(deps, userId, { name: 'A', currency: { code: 'EUR' } });
    const b = await createAccount(deps, userId, { name: 'B', currency: { code: 'EUR' } });
    const [entry] = await createEntries(deps, userId, [
      draft({ amount: -10, account: a.id, transaction: { account: b.id } }),
    ]);
    const updated = await updateEntry(
      deps,
      { userId: userId },
      {
        id: entry.id,
        clientModified: entry.modifiedAt,
        intended: () => ({ ...entriesTable.options.toSnapshot(entry) }),
        transfer: 'remove',
        parseState: asBody,
        presentCurrent: () => ({}),
      },
    );
    expect(updated.transactionId).toBeNull();
    expect([await balanceOf(userId, a.id), await balanceOf(userId, b.id)]).toEqual(['-10', '0']);
  });

  it('when one entry of a batch is invalid, then none is created and every bad field is named', async () => {
    const userId = await createLedgerUser(deps);
    const other = await createLedgerUser(deps);
    const mine = await createAccount(deps, userId, { name: 'Mine', currency: { code: 'EUR' } });
    const theirs = await createAccount(deps, other, { name: 'Theirs', currency: { code: 'EUR' } });
    const theirCategory = await insertCategory(deps, other);
    const error = await createEntries(
      deps,
      userId,
      [
        draft({ amount: -1, account: mine.id }),
        draft({ amount: -2, account: theirs.id, category: theirCategory }),
      ],
      { fieldsByIndex: true },
    ).catch((caught) => caught);
    expect(error.fields).toEqual([
      { field: '1.account', error: 'must be one of your accounts' },
      { field: '1.category', error: 'must be one of your categories' },
    ]);
    expect(await balanceOf(userId, mine.id)).toBe('0');
    expect(await balanceOf(other, theirs.id)).toBe('0');
  });

  it('when another user names an entry or account id, then it is not found', async () => {
    const owner = await createLedgerUser(deps);
    const stranger = await createLedgerUser(deps);
    const account = await createAccount(deps, owner, { name: 'Mine', currency: { code: 'EUR' } });
    await createAccount(deps, stranger, { name: 'Theirs', currency: { code: 'EUR' } });
    const [entry] = await createEntries(deps, owner, [draft({ amount: -1, account: account.id })]);
    await expect(deleteEntry(deps, { userId: stranger }, entry.id)).rejects.toMatchObject({ status: 404 });
    await expect(deleteAccount(deps, { userId: stranger }, account.id)).rejects.toMatchObject({
      status: 404,
    });
    expect(await balanceOf(owner, account.id)).toBe('-1');
  });

  it('when the last account is deleted, then it is refused; otherwise its entries go with it', async () => {
    const userId = await createLedgerUser(deps);
    const a = await createAccount(deps, userId, { name: 'A', currency: { code: 'EUR' } });
    const b = await createAccount(deps, userId, { name: 'B', currency: { code: 'EUR' } });
    const [entry] = await createEntries(deps, userId, [
      draft({ amount: -5, account: a.id, transaction: { account: b.id } }),
    ]);
    expect(await deleteAccount(deps, { userId: userId }, a.id)).toEqual({ deletedEntries: 1 });
    const companion = await entryOf(userId, entry.transactionId!);
    expect(companion.transactionId).toBeNull();
    expect(await balanceOf(userId, b.id)).toBe('5');
    await expect(deleteAccount(deps, { userId: userId }, b.id)).rejects.toMatchObject({ status: 422 });
  });
});

describe('ledger under concurrency', () => {
  it('when many writers create entries and transfers in both directions at once, then balances are exact', async () => {
    const userId = await createLedgerUser(deps);
    const a = await createAccount(deps, userId, { name: 'A', currency: { code: 'EUR' } });
    const b = await createAccount(deps, userId, { name: 'B', currency: { code: 'EUR' } });
    const writes = Array.from({ length: 40 }, (_, index) => {
      const [account, other] = index % 2 ? [a.id, b.id] : [b.id, a.id];
      const body =
        index % 4 < 2
          ? { amount: -(index + 0.01), account, transaction: { account: other } }
          : { amount: index + 0.5, account };
      return createEntries(deps, userId, [draft(body)]);
    });
    await Promise.all(writes);
    const rows = await deps.dataSource.query(
      `SELECT account_id::text AS id, sum(account_amount)::text AS total FROM entries WHERE user_id = $1 AND NOT deleted GROUP BY 1`,
      [userId],
    );
    const expected = Object.fromEntries(
      rows.map((row: { id: string; total: string }) => [row.id, new Decimal(row.total).toFixed()]),
    );
    expect(await balanceOf(userId, a.id)).toBe(expected[a.id]);
    expect(await balanceOf(userId, b.id)).toBe(expected[b.id]);
  });

  it('when the same transfer is updated concurrently, then both sides end consistent with the last write', async () => {
    const userId = await createLedgerUser(deps);
    const a = await createAccount(deps, userId, { name: 'A', currency: { code: 'EUR' } });
    const b = await createAccount(deps, userId, { name: 'B', currency: { code: 'EUR' } });
    const [entry] = await createEntries(deps, userId, [
      draft({ amount: -1, account: a.id, transaction: { account: b.id } }),
    ]);
    const outcomes = await Promise.allSettled(
      [2, 3, 4, 5].map((amount) =>
        updateEntry(
          deps,
          { userId: userId },
          {
            id: entry.id,
            clientModified: entry.modifiedAt,
            intended: () => ({ ...entriesTable.options.toSnapshot(entry), amount: String(-amount) }),
            transfer: 'keep',
            parseState: asBody,
            presentCurrent: () => ({}),
          },
        ),
      ),
    );
    // Same base, same field changed: one wins, the others conflict (409) and change nothing.
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const final = await entryOf(userId, entry.id);
    const companion = await entryOf(userId, entry.transactionId!);
    expect(new Decimal(final.amount).plus(companion.amount).isZero()).toBe(true);
    expect(await balanceOf(userId, a.id)).toBe(final.amount);
    expect(await balanceOf(userId, b.id)).toBe(companion.amount);
  });
});

type Operation =
  | { kind: 'entry'; account: number; cents: number }
  | { kind: 'transfer'; account: number; other: number; cents: number }
  | { kind: 'update'; pick: number; cents: number }
  | { kind: 'delete'; pick: number };

describe('ledger balances, property-based', () => {
  it('when any sequence of entries, transfers, updates and deletes runs, then balances equal a reference sum', async () => {
    const cents = fc.integer({ min: -1_000_000, max: 1_000_000 }).filter((value) => value !== 0);
    const account = fc.integer({ min: 0, max: 2 });
    const operation: fc.Arbitrary<Operation> = fc.oneof(
      fc.record({ kind: fc.constant('entry' as const), account, cents }),
      fc.record({ kind: fc.constant('transfer' as const), account, other: account, cents }),
      fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), cents }),
      fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 12 }), async (operations) => {
        const userId = await createLedgerUser(deps);
        const accounts = [];
        for (const name of ['A', 'B', 'C'])
          accounts.push(await createAccount(deps, userId, { name, currency: { code: 'EUR' } }));
        // Reference model: live entries as (account index, cents), transfers as pairs.
        const model = new Map<string, { account: number; cents: number; pair?: string }>();
        for (const op of operations) {
          const live = [...model.keys()];
          if (op.kind === 'entry' || (op.kind === 'transfer' && op.account === op.other)) {
            const [entry] = await createEntries(deps, userId, [
              draft({ amount: op.cents / 100, account: accounts[op.account].id }),
            ]);
            model.set(entry.id, { account: op.account, cents: op.cents });
          } else if (op.kind === 'transfer') {
            const [entry] = await createEntries(deps, userId, [
              draft({
                amount: op.cents / 100,
                account: accounts[op.account].id,
                transaction: { account: accounts[op.other].id },
              }),
            ]);
            model.set(entry.id, { account: op.account, cents: op.cents, pair: entry.transactionId! });
            model.set(entry.transactionId!, { account: op.other, cents: -op.cents, pair: entry.id });
          } else if (live.length && op.kind === 'update') {
            const id = live[op.pick % live.length];
            const current = await entryOf(userId, id);
            await updateEntry(
              deps,
              { userId: userId },
              {
                id,
                clientModified: current.modifiedAt,
                intended: () => ({
                  ...entriesTable.options.toSnapshot(current),
                  amount: String(op.cents / 100),
                }),
                transfer: 'keep',
                parseState: asBody,
                presentCurrent: () => ({}),
              },
            );
            const item = model.get(id)!;
            item.cents = op.cents;
            if (item.pair) model.get(item.pair)!.cents = -op.cents;
          } else if (live.length && op.kind === 'delete') {
            const id = live[op.pick % live.length];
            await deleteEntry(deps, { userId: userId }, id);
            const pair = model.get(id)!.pair;
            model.delete(id);
            if (pair) model.delete(pair);
          }
        }
        expect(await deps.accounts.countLiveEntries(deps.store.read({ userId: userId }))).toBe(model.size);
        for (const [index, acc] of accounts.entries()) {
          const expected = [...model.values()]
            .filter((item) => item.account === index)
            .reduce((sum, item) => sum + item.cents, 0);
          expect(await balanceOf(userId, acc.id)).toBe(new Decimal(expected).dividedBy(100).toFixed());
        }
      }),
      { numRuns: 25 },
    );
  });
});
