import { Decimal } from '@pfs/money';
import { accountsTable, entriesTable } from '@pfs/resource-store';
import fc from 'fast-check';
import type { EntryBody } from '../../src/modules/entries/entry-body.schema';
import { entryDraftOf } from '../../src/modules/entries/entry-draft';
import { updateEntry } from '../../src/modules/entries/update-entry.use-case';
import { createLedgerUser, openLedger, type LedgerFixture } from '../support/ledger-fixture';
import { createAccount, createEntries, manageEntries, mergeAccounts } from '../support/ledger-calls';

let deps: LedgerFixture;
beforeAll(async () => {
  deps = await openLedger();
});
afterAll(() => deps.close());

type Operation =
  | { kind: 'entry'; account: number; cents: number }
  | { kind: 'transfer'; account: number; other: number; cents: number }
  | { kind: 'update'; pick: number; cents: number }
  | { kind: 'move'; from: number; to: number }
  | { kind: 'merge'; from: number; to: number };

interface ModelEntry {
  account: string;
  cents: number;
  pair?: string;
}

/** These writes bypass the HTTP layer and its schema: the states they build are taken as they are. */
const asBody = (state: Record<string, unknown>) => state as unknown as EntryBody;

const draft = (amount: number, account: string, transfer?: string) =>
  entryDraftOf({
    amount,
    currency: { code: 'EUR' },
    date: '2025-05-09',
    account,
    ...(transfer ? { transaction: { account: transfer } } : {}),
  } as EntryBody);

/** Moves every entry of `from` to `to` in the model; transfers whose two sides now share an account unlink. */
function moveInModel(model: Map<string, ModelEntry>, from: string, to: string): void {
  for (const item of model.values()) if (item.account === from) item.account = to;
  for (const item of model.values()) {
    if (item.pair && model.get(item.pair)?.account === item.account) item.pair = undefined;
  }
}

describe('ledger under merges and bulk moves, property-based', () => {
  it('when entries, transfers, updates, bulk moves and merges run in any order, then balances and links match a model', async () => {
    const index = fc.nat({ max: 3 });
    const cents = fc.integer({ min: -100_000, max: 100_000 }).filter((value) => value !== 0);
    const operation: fc.Arbitrary<Operation> = fc.oneof(
      fc.record({ kind: fc.constant('entry' as const), account: index, cents }),
      fc.record({ kind: fc.constant('transfer' as const), account: index, other: index, cents }),
      fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), cents }),
      fc.record({ kind: fc.constant('move' as const), from: index, to: index }),
      fc.record({ kind: fc.constant('merge' as const), from: index, to: index }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 10 }), async (operations) => {
        const userId = await createLedgerUser(deps);
        const alive: string[] = [];
        for (const name of ['A', 'B', 'C', 'D'])
          alive.push((await createAccount(deps, userId, { name, currency: { code: 'EUR' } })).id);
        const model = new Map<string, ModelEntry>();
        const pickAccount = (i: number) => alive[i % alive.length];
        for (const op of operations) {
          if (
            op.kind === 'entry' ||
            (op.kind === 'transfer' && pickAccount(op.account) === pickAccount(op.other))
          ) {
            const [entry] = await createEntries(deps, userId, [
              draft(op.cents / 100, pickAccount(op.account)),
            ]);
            model.set(entry.id, { account: pickAccount(op.account), cents: op.cents });
          } else if (op.kind === 'transfer') {
            const [entry] = await createEntries(deps, userId, [
              draft(op.cents / 100, pickAccount(op.account), pickAccount(op.other)),
            ]);
            model.set(entry.id, {
              account: pickAccount(op.account),
              cents: op.cents,
              pair: entry.transactionId!,
            });
            model.set(entry.transactionId!, {
              account: pickAccount(op.other),
              cents: -op.cents,
              pair: entry.id,
            });
          } else if (op.kind === 'update' && model.size) {
            const id = [...model.keys()][op.pick % model.size];
            const current = (await entriesTable.findById(deps.store.read({ userId: userId }), id))!;
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
          } else if (op.kind === 'move' && pickAccount(op.from) !== pickAccount(op.to)) {
            await manageEntries(deps, userId, {
              with: { accounts: [pickAccount(op.from)] },
              set: { account: pickAccount(op.to) },
            });
            moveInModel(model, pickAccount(op.from), pickAccount(op.to));
          } else if (op.kind === 'merge' && alive.length > 1 && pickAccount(op.from) !== pickAccount(op.to)) {
            const [from, to] = [pickAccount(op.from), pickAccount(op.to)];
            await mergeAccounts(deps, userId, [from], to);
            moveInModel(model, from, to);
            alive.splice(alive.indexOf(from), 1);
          }
        }
        expect(await deps.accounts.countLiveEntries(deps.store.read({ userId: userId }))).toBe(model.size);
        for (const accountId of alive) {
          const account = (await accountsTable.findById(deps.store.read({ userId: userId }), accountId))!;
          const expected = [...model.values()]
            .filter((item) => item.account === accountId)
            .reduce((sum, item) => sum + item.cents, 0);
          expect(new Decimal(account.initialBalance).plus(account.entriesTotal).toFixed()).toBe(
            new Decimal(expected).dividedBy(100).toFixed(),
          );
        }
        for (const [id, item] of model) {
          const stored = (await entriesTable.findById(deps.store.read({ userId: userId }), id))!;
          expect([id, stored.accountId, stored.transactionId]).toEqual([id, item.account, item.pair ?? null]);
        }
      }),
      { numRuns: 25 },
    );
  });
});
