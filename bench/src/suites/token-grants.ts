import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { BenchContext } from '../bench-context';
import { dataSize, Measurement, measurePool } from '../measure';
import { PostgresCpu } from '../postgres-cpu';
import { cpuMillisOf, startServiceProcess } from '../service-process';
import {
  basicAuthorization,
  codeExchangeBodies,
  mintOidcProviderCodes,
  mintPfsCodes,
  PendingCode,
  refreshBodies,
  registerPfsApp,
} from './token-grant-pools';
import { oidcProviderVersion, type Peer, SCOPE, type Side, startPeer } from './token-grant-peers';

const repoRoot = join(__dirname, '../../..');
const CONNECTIONS = 16;
/** Alternating rounds of each grant per side (BENCH_TOKEN_ROUNDS for an A/B: more, shorter rounds). */
const ROUNDS = Number(process.env.BENCH_TOKEN_ROUNDS ?? 4);
const EXCHANGE = 'code exchange (PKCE S256)';
const REFRESH = 'refresh grant (rotation)';

/**
 * A side's rounds of one grant, summed: requests, wall time, CPU time of its server process and of its Postgres
 * backends, latencies.
 */
class Tally {
  readonly rounds: Measurement[] = [];
  seconds = 0;
  cpuMillis = 0;
  postgresCpuMillis = 0;
  /** Each round's process CPU per grant (µs), for the A/B note's spread. */
  readonly roundCpuMicros: number[] = [];

  add(round: Measurement, cpuMillis: number, postgresCpuMillis: number) {
    this.rounds.push(round);
    this.roundCpuMicros.push(round.requests ? (cpuMillis * 1000) / round.requests : 0);
    if (round.requestsPerSecond > 0) this.seconds += round.requests / round.requestsPerSecond;
    this.cpuMillis += cpuMillis;
    this.postgresCpuMillis += postgresCpuMillis;
  }

  get requests() {
    return this.rounds.reduce((sum, round) => sum + round.requests, 0);
  }

  /** All rounds as one row named `name`: requests over the rounds' summed time, mean p50, worst p99. */
  total(name: string): Measurement {
    const { rounds, requests } = this;
    return {
      ...rounds[0],
      name,
      requestsPerSecond: this.seconds ? requests / this.seconds : 0,
      p50Ms: rounds.reduce((sum, round) => sum + round.p50Ms, 0) / rounds.length,
      p99Ms: Math.max(...rounds.map((round) => round.p99Ms)),
      requests,
      errors: rounds.reduce((sum, round) => sum + round.errors, 0),
    };
  }

  cpuMicrosPerGrant() {
    return this.requests ? (this.cpuMillis * 1000) / this.requests : 0;
  }

  postgresCpuMicrosPerGrant() {
    return this.requests ? (this.postgresCpuMillis * 1000) / this.requests : 0;
  }
}

/** Sends each body once to the side's token endpoint, counting the CPU time its process spent meanwhile. */
async function round(
  side: Side,
  grant: string,
  bodies: string[],
  tally: Tally,
  onBody?: (body: string) => void,
) {
  const postgres = side.postgres && (await PostgresCpu.begin(side.postgres.pool, side.postgres.application));
  const before = cpuMillisOf(side.pid);
  const measurement = await measurePool({
    name: `POST /oauth2/token ${grant} (${side.endpoint.label})`,
    url: side.endpoint.url,
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: side.endpoint.authorization,
    },
    bodies,
    connections: CONNECTIONS,
    onBody: onBody && ((status, body) => status === 200 && onBody(body)),
  });
  const cpuMillis = cpuMillisOf(side.pid) - before;
  tally.add(measurement, cpuMillis, postgres ? await postgres.spentSince() : 0);
}

/** `items` in `count` slices of nearly equal size. */
const slices = <T>(items: T[], count: number) =>
  Array.from({ length: count }, (_, index) =>
    items.slice(Math.floor((index * items.length) / count), Math.floor(((index + 1) * items.length) / count)),
  );

/**
 * Both sides, grant by grant, in ROUNDS alternating rounds (PFS, peer, PFS, peer…), so that a change of the
 * machine's load during the run falls on both: each code is exchanged once, then each refresh token those
 * exchanges issued is used once. Returns each side's tallies.
 */
async function runRounds(sides: Side[], codes: PendingCode[][]) {
  const exchanges = sides.map(() => new Tally());
  const refreshes = sides.map(() => new Tally());
  const refreshTokens: string[][] = sides.map(() => []);
  const codeSlices = codes.map((pool) => slices(pool, ROUNDS));
  // Odd rounds go in the reverse order (A B, B A…): no side always follows the same one.
  const order = (index: number) => (index % 2 === 0 ? [...sides.entries()] : [...sides.entries()].reverse());
  for (let index = 0; index < ROUNDS; index += 1) {
    for (const [side, s] of order(index)) {
      await round(s, EXCHANGE, codeExchangeBodies(codeSlices[side][index]), exchanges[side], (body) =>
        refreshTokens[side].push((JSON.parse(body) as { refresh_token: string }).refresh_token),
      );
    }
  }
  const tokenSlices = refreshTokens.map((pool) => slices(pool, ROUNDS));
  for (let index = 0; index < ROUNDS; index += 1) {
    for (const [side, s] of order(index)) {
      await round(s, REFRESH, refreshBodies(tokenSlices[side][index]), refreshes[side]);
    }
  }
  return { exchanges, refreshes };
}

/** One PFS auth process (the build at `entry`), its bench app registered: a side of the rounds, and its stop. */
async function startPfsSide(context: BenchContext, entry: string, label: string) {
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const auth = await startServiceProcess(
    entry,
    {
      ...context.env,
      // Its own key prefix: its per-IP counters (every bench request comes from loopback) must not fill the
      // buckets of anything else on the same Redis prefix (the smoke test runs under its test run's prefix).
      REDIS_KEY_PREFIX: `${context.env.REDIS_KEY_PREFIX}tokens-${randomBytes(4).toString('hex')}:`,
      AUTH_PORT: '0',
      AUTH_CODE_TTL_SECONDS: '600',
      // The limiters still count every request (their cost is measured) but never refuse one.
      AUTH_TOKEN_MAX_REQUESTS_PER_IP: '10000000',
      AUTH_AUTHORIZE_MAX_REQUESTS_PER_IP: '10000000',
      AUTH_SIGNIN_MAX_FAILURES_PER_IP: '1000000',
    },
    undefined,
    profile,
  );
  try {
    const app = await registerPfsApp(auth.url, SCOPE);
    const side: Side = {
      endpoint: {
        label,
        url: `${auth.url}/oauth2/token`,
        authorization: basicAuthorization(app.clientId, app.clientSecret),
      },
      pid: auth.child.pid!,
      // Both PFS builds of an A/B have this name; each round's backends' CPU is still that side's (one works at a time).
      postgres: { pool: context.pg, application: 'pfs-auth' },
    };
    return { side, mint: (count: number) => mintPfsCodes(auth.url, app, count), stop: () => auth.stop() };
  } catch (error) {
    await auth.stop();
    throw error;
  }
}

/**
 * BENCH_AUTH_ENTRY_B: a second auth build (a copy of its dist/ beside it) run as one more side of the same rounds,
 * alternating with the first: an A/B within one run, resolving what separate runs on this machine cannot. Its CPU
 * per grant is printed beside the first build's (BENCH_TOKEN_PEERS=0 leaves the oidc-provider peers out).
 */
function noteAb(context: BenchContext, grant: string, first: Tally, second: Tally) {
  const [a, b] = [first.cpuMicrosPerGrant(), second.cpuMicrosPerGrant()];
  context.note(
    `token grant A/B, ${grant}: process CPU per grant, PFS (BENCH_AUTH_ENTRY) vs PFS-B (BENCH_AUTH_ENTRY_B)`,
    `${a.toFixed(0)} µs vs ${b.toFixed(0)} µs (B/A ${(b / a).toFixed(3)}); Postgres backends ` +
      `${first.postgresCpuMicrosPerGrant().toFixed(0)} vs ${second.postgresCpuMicrosPerGrant().toFixed(0)} µs; ` +
      `grants/s ${first.total('A').requestsPerSecond.toFixed(0)} vs ${second.total('B').requestsPerSecond.toFixed(0)}; ` +
      `B/A by round ${first.roundCpuMicros.map((a, index) => (second.roundCpuMicros[index] / a).toFixed(2)).join(' ')}`,
  );
}

/**
 * Token grants per second on one PFS auth process beside panva's oidc-provider twice, on Redis and on Postgres,
 * each in its own process, in the same run: a pool of codes is issued on each side before the timed window (PFS's
 * through its consent form, the peers' through their own models), each code is exchanged once (PKCE S256,
 * client_secret_basic), and the refresh tokens those exchanges issued are each used once. Rows: PFS, once with
 * each peer as its ceiling; notes: grants/s ratios and CPU per grant of each process and, for the sides on
 * Postgres, of their Postgres backends.
 */
export async function measureTokenGrants(context: BenchContext): Promise<void> {
  const poolSize = Number(process.env.BENCH_TOKEN_POOL ?? dataSize(context.quick, 4000, 300));
  // BENCH_AUTH_ENTRY: another build of the auth service (a copy of its dist/ beside it), for an A/B of a change.
  const entry = process.env.BENCH_AUTH_ENTRY ?? join(repoRoot, 'services/auth/dist/main.js');
  const pfsSides = [await startPfsSide(context, entry, 'PFS')];
  const version = oidcProviderVersion();
  const client = { id: 'bench-oidc-client', secret: randomBytes(24).toString('base64url') };
  const peers: Peer[] = [];
  try {
    // Comma-separated: several builds against the first, each its own side (PFS-B, PFS-B2…).
    const entriesB = process.env.BENCH_AUTH_ENTRY_B?.split(',') ?? [];
    for (const [index, entryB] of entriesB.entries())
      pfsSides.push(await startPfsSide(context, entryB, `PFS-B${index === 0 ? '' : index + 1}`));
    if (process.env.BENCH_TOKEN_PEERS !== '0')
      for (const store of ['Redis', 'Postgres'] as const)
        peers.push(await startPeer(context, store, client, version));
    const codes = [];
    for (const pfs of pfsSides) codes.push(await pfs.mint(poolSize));
    for (const peer of peers) codes.push(await mintOidcProviderCodes(peer.url, poolSize));
    const sides = [...pfsSides.map((pfs) => pfs.side), ...peers.map((peer) => peer.side)];
    const { exchanges, refreshes } = await runRounds(sides, codes);
    for (const [grant, tallies] of [
      [EXCHANGE, exchanges],
      [REFRESH, refreshes],
    ] as const) {
      const [mine, ...rest] = tallies;
      for (const [index, entryB] of entriesB.entries())
        noteAb(context, `${grant}, ${entryB}`, mine, rest[index]);
      const theirs = rest.slice(pfsSides.length - 1);
      if (peers.length === 0) continue;
      const cpu = (tally: Tally, store: string) => {
        const postgres = tally.postgresCpuMicrosPerGrant();
        return `${tally.cpuMicrosPerGrant().toFixed(0)} µs${store === 'Redis' ? '' : ` (+ its Postgres backends ${postgres.toFixed(0)} µs)`}`;
      };
      const cpuFigures = [`PFS ${cpu(mine, 'Postgres')}`];
      for (const [index, peer] of peers.entries()) {
        const row = mine.total(`POST /oauth2/token ${grant} vs oidc-provider/${peer.store}`);
        const peerRow = theirs[index].total(`oidc-provider ${version} on ${peer.store}`);
        context.record({ ...row, target: { kind: 'vsCeiling', min: 1 }, ceiling: peerRow });
        context.compare(
          `token grants/s, ${grant} (${CONNECTIONS} conn): PFS vs oidc-provider/${peer.store} (${version})`,
          row.requestsPerSecond,
          `oidc-provider/${peer.store}`,
          peerRow.requestsPerSecond,
          'grants/s',
        );
        const ratio = theirs[index].cpuMicrosPerGrant() / mine.cpuMicrosPerGrant();
        cpuFigures.push(
          `oidc-provider/${peer.store} ${cpu(theirs[index], peer.store)} (process ratio ${ratio.toFixed(2)})`,
        );
      }
      context.note(
        `token grant server CPU per grant, ${grant} (each process; Postgres backends' beside it; Redis not counted)`,
        cpuFigures.join(' vs '),
      );
    }
  } finally {
    for (const peer of peers) await peer.stop();
    for (const pfs of pfsSides) await pfs.stop();
  }
}
