import { dataSize } from '../measure';
import type { BenchContext } from '../bench-context';
import type { BenchSuite } from '../bench-suite';
import { seedLedger } from './entries-seed';

const FULL_SIZE = 1_000_000;
const QUICK_SIZE = 20_000;

/**
 * Main-currency changes at scale (`PUT /me`, docs/ledger.md): one user with 1,000,000 entries in three
 * accounts of its main currency (BENCH_QUICK=1: 20,000; BENCH_ME_CURRENCY_SIZE=N: N), its own seed because
 * the suite rewrites it. Times a `sign` relabel there and back, and a `historical` change with
 * `update_accounts` there and back (each re-rates every entry). Every run adds four revisions per entry to
 * `resource_revisions`.
 */
export const meCurrencySuite: BenchSuite = {
  name: 'me-currency',
  async run(context) {
    const size = Number(process.env.BENCH_ME_CURRENCY_SIZE) || dataSize(context.quick, FULL_SIZE, QUICK_SIZE);
    const seed = await seedLedger(context, size, 'currency');
    const scale = `${size / 1000}k entries`;
    const start = String((await getMe(context, seed.auth)).currency.main);
    const other = start === 'EUR' ? 'USD' : 'EUR';
    for (const [update, extra] of [
      ['sign', {}],
      ['historical', { update_accounts: true }],
    ] as const) {
      for (const [from, to] of [
        [start, other],
        [other, start],
      ]) {
        const ms = await putMain(context, seed.auth, { main: to, update, ...extra });
        context.note(
          `PUT /me ${update}${'update_accounts' in extra ? ' + update_accounts' : ''} ${from}→${to} (${scale})`,
          `${(ms / 1000).toFixed(1)} s`,
        );
      }
    }
  },
};

async function getMe(context: BenchContext, auth: string) {
  const answer = await fetch(`${context.apiUrl}/me`, { headers: { authorization: auth } });
  return (await answer.json()) as { modified: string; currency: { main: string } };
}

/** One PUT /me changing the main currency; returns its duration in milliseconds. */
async function putMain(context: BenchContext, auth: string, currency: Record<string, unknown>) {
  const me = await getMe(context, auth);
  const started = Date.now();
  const answer = await fetch(`${context.apiUrl}/me`, {
    method: 'PUT',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify({ modified: me.modified, currency }),
  });
  if (answer.status !== 200) throw new Error(`PUT /me ${answer.status}: ${await answer.text()}`);
  return Date.now() - started;
}
