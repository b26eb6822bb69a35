import { Decimal } from '@pfs/money';
import { accountsTable, entriesTable, type PlainEntryWrite } from '@pfs/resource-store';
import { createPlainEntries } from '../../../src/modules/entries/create-plain-entries.use-case';
import type { EntryBody } from '../../../src/modules/entries/entry-body.schema';
import { type EntryDraft, entryDraftOf } from '../../../src/modules/entries/entry-draft';
import { PlainEntryQueue } from '../../../src/modules/entries/plain-entry-queue';
import { createLedgerUser, openLedger, type LedgerFixture } from '../../support/ledger-fixture';
import { createAccount } from '../../support/ledger-calls';

let deps: LedgerFixture;
beforeAll(async () => {
  deps = await openLedger();
});
afterAll(() => deps.close());

const draft = (body: Record<string, unknown>): EntryDraft =>
  entryDraftOf({ currency: { code: 'EUR' }, date: '2025-05-09', ...body } as unknown as EntryBody);

/** A stored state as createPlainEntries makes it, for an EUR account. */
const write = (
  account: string,
  amount: string,
  accountCurrency = 'EUR',
  extra?: Record<string, unknown>,
): PlainEntryWrite => ({
  snapshot: {
    amount,
    currency: { code: 'EUR', rate: '1', fixed: false },
    date: '2025-05-09',
    account,
    completed: true,
    ...(extra ? { extra } : {}),
    account_amount: amount,
  },
  accountCurrency,
});

async function balanceOf(userId: string, accountId: string) {
  const account = (await accountsTable.findById(deps.store.read({ userId }), accountId))!;
  return new Decimal(account.initialBalance).plus(account.entriesTotal).toFixed();
}

describe('plain entries of one user written together while one of theirs is in flight (PlainEntryQueue)', () => {
  it('when many requests of one user arrive at once, then the first is written alone and the rest together, each answered its own entries', async () => {
    const userId = await createLedgerUser(deps);
    const account = await createAccount(deps, userId, { name: 'Cash', currency: { code: 'EUR' } });
    const queue = new PlainEntryQueue(deps.store);
    const actor = { userId, app: 'app-one' };
    // Queued in one turn of the event loop: the first starts a change, the seven others wait for it.
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        queue.write(
          actor,
          // One request is a batch of two: it keeps both, in its order.
          index === 3
            ? [write(account.id, '-100'), write(account.id, '-200')]
            : [write(account.id, String(-(index + 1)), 'EUR', { n: index })],
        ),
      ),
    );
    expect(answers.map((answer) => answer!.entries.map((entry) => entry.amount))).toEqual([
      ['-1'],
      ['-2'],
      ['-3'],
      ['-100', '-200'],
      ['-5'],
      ['-6'],
      ['-7'],
      ['-8'],
    ]);
    expect(answers[0]!.entries[0].extra).toEqual({ n: 0 });
    expect(answers[7]!.entries[0].extra).toEqual({ n: 7 });
    // The first alone; the seven that waited for it as one change (one change sequence number, as a batch).
    const changes = answers.map((answer) => answer!.entries[0].changeSeq);
    expect(new Set(changes).size).toBe(2);
    expect(new Set(changes.slice(1)).size).toBe(1);
    expect(await deps.store.watermark(userId)).toBe(changes[1]);
    expect(await balanceOf(userId, account.id)).toBe('-332');
    for (const entry of answers.flatMap((answer) => answer!.entries)) {
      expect(
        await entriesTable.findRevision(deps.store.read(actor), entry.id, entry.modifiedAt),
      ).toBeTruthy();
    }
    // Through the use case (checks on the pool first, then the queue): each request its own entries.
    const checked = await Promise.all(
      [-1000, -2000, -3000].map((amount) =>
        createPlainEntries(deps, actor, [draft({ amount, account: account.id })], {
          fieldsByIndex: false,
          queue,
        }),
      ),
    );
    expect(checked.map((answer) => answer!.entries[0].amount)).toEqual(['-1000', '-2000', '-3000']);
    expect(await balanceOf(userId, account.id)).toBe('-6332');
  });

  it('when one request of a change fails, then only that request fails and the others are written', async () => {
    const userId = await createLedgerUser(deps);
    const account = await createAccount(deps, userId, { name: 'Cash', currency: { code: 'EUR' } });
    const queue = new PlainEntryQueue(deps.store);
    const tooLarge = '1' + '0'.repeat(30);
    const answers = await Promise.allSettled([
      queue.write({ userId }, [write(account.id, '-1')]),
      queue.write({ userId }, [write(account.id, '-2')]),
      queue.write({ userId }, [write(account.id, tooLarge)]),
      queue.write({ userId }, [write(account.id, '-4')]),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(String((answers[2] as PromiseRejectedResult).reason)).toMatch(/numeric field overflow/);
    expect(await balanceOf(userId, account.id)).toBe('-7');
  });

  it('when a reference changed under the lock, then every request of that change answers undefined (each takes the ordinary path) and nothing of it is written', async () => {
    const userId = await createLedgerUser(deps);
    const account = await createAccount(deps, userId, { name: 'Cash', currency: { code: 'EUR' } });
    const queue = new PlainEntryQueue(deps.store);
    const answers = await Promise.all([
      queue.write({ userId }, [write(account.id, '-1')]),
      queue.write({ userId }, [write(account.id, '-2')]),
      // Converted to a currency the account no longer has.
      queue.write({ userId }, [write(account.id, '-3', 'USD')]),
    ]);
    expect(answers[0]?.entries.map((entry) => entry.amount)).toEqual(['-1']);
    expect(answers.slice(1)).toEqual([undefined, undefined]);
    expect(await balanceOf(userId, account.id)).toBe('-1');
  });

  it('when two users write at once, then neither waits for the other', async () => {
    const [one, two] = await Promise.all([createLedgerUser(deps), createLedgerUser(deps)]);
    const [first, second] = await Promise.all([
      createAccount(deps, one, { name: 'Cash', currency: { code: 'EUR' } }),
      createAccount(deps, two, { name: 'Cash', currency: { code: 'EUR' } }),
    ]);
    const queue = new PlainEntryQueue(deps.store);
    const answers = await Promise.all([
      queue.write({ userId: one }, [write(first.id, '-1')]),
      queue.write({ userId: two }, [write(second.id, '-2')]),
    ]);
    expect(answers.map((answer) => answer?.entries[0].amount)).toEqual(['-1', '-2']);
    expect([await balanceOf(one, first.id), await balanceOf(two, second.id)]).toEqual(['-1', '-2']);
  });
});
