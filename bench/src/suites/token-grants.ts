import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchContext } from '../bench-context';
import { dataSize, Measurement, measurePool } from '../measure';
import { cpuMillisOf, startServiceProcess } from '../service-process';
import {
  basicAuthorization,
  BENCH_REDIRECT_URI,
  codeExchangeBodies,
  mintOidcProviderCodes,
  mintPfsCodes,
  PendingCode,
  refreshBodies,
  registerPfsApp,
} from './token-grant-pools';

const repoRoot = join(__dirname, '../../..');
const CONNECTIONS = 16;
/** Alternating rounds of each grant per side. */
const ROUNDS = 4;
const EXCHANGE = 'code exchange (PKCE S256)';
const REFRESH = 'refresh grant (rotation)';
const SCOPE = 'user:r entries:rw';

/** Where a side's token endpoint is and how the client authenticates there. */
interface TokenEndpoint {
  /** The row's name ends with it: PFS's rows are named after the peer they are measured beside. */
  label: string;
  url: string;
  authorization: string;
}

/** The pinned version of the peer (bench/package.json), printed with its figures. */
function oidcProviderVersion(): string {
  const manifest = join(repoRoot, 'bench/node_modules/oidc-provider/package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** One side of the comparison: where its token endpoint is and how the client authenticates there. */
interface Side {
  endpoint: TokenEndpoint;
  /** The server's process, whose CPU time each round reads. */
  pid: number;
}

/** A side's rounds of one grant, summed: requests, wall time, CPU time of its server process, latencies. */
class Tally {
  readonly rounds: Measurement[] = [];
  seconds = 0;
  cpuMillis = 0;

  add(round: Measurement, cpuMillis: number) {
    this.rounds.push(round);
    if (round.requestsPerSecond > 0) this.seconds += round.requests / round.requestsPerSecond;
    this.cpuMillis += cpuMillis;
  }

  get requests() {
    return this.rounds.reduce((sum, round) => sum + round.requests, 0);
  }

  /** All rounds as one row: requests over the rounds' summed time, mean p50, worst p99. */
  total(): Measurement {
    const { rounds, requests } = this;
    return {
      ...rounds[0],
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
}

/** Sends each body once to the side's token endpoint, counting the CPU time its process spent meanwhile. */
async function round(
  side: Side,
  grant: string,
  bodies: string[],
  tally: Tally,
  onBody?: (body: string) => void,
) {
  const before = cpuMillisOf(side.pid);
  const measurement = await measurePool({
    name: `POST /oauth2/token ${grant} vs ${side.endpoint.label}`,
    url: side.endpoint.url,
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: side.endpoint.authorization,
    },
    bodies,
    connections: CONNECTIONS,
    onBody: onBody && ((status, body) => status === 200 && onBody(body)),
  });
  tally.add(measurement, cpuMillisOf(side.pid) - before);
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
  for (let index = 0; index < ROUNDS; index += 1) {
    for (const [side, s] of sides.entries()) {
      await round(s, EXCHANGE, codeExchangeBodies(codeSlices[side][index]), exchanges[side], (body) =>
        refreshTokens[side].push((JSON.parse(body) as { refresh_token: string }).refresh_token),
      );
    }
  }
  const tokenSlices = refreshTokens.map((pool) => slices(pool, ROUNDS));
  for (let index = 0; index < ROUNDS; index += 1) {
    for (const [side, s] of sides.entries()) {
      await round(s, REFRESH, refreshBodies(tokenSlices[side][index]), refreshes[side]);
    }
  }
  return { exchanges, refreshes };
}

/**
 * Token grants per second on one PFS auth process beside panva's oidc-provider on Redis, each in its own
 * process, in the same run: a pool of codes is issued on each side before the timed window (PFS's through its
 * consent form, the peer's through its own models), each code is exchanged once (PKCE S256, client_secret_basic),
 * and the refresh tokens those exchanges issued are each used once. Rows: PFS, with the peer as its ceiling.
 */
export async function measureTokenGrants(context: BenchContext): Promise<void> {
  const poolSize = Number(process.env.BENCH_TOKEN_POOL ?? dataSize(context.quick, 4000, 300));
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  // BENCH_AUTH_ENTRY: another build of the auth service (a copy of its dist/ beside it), for an A/B of a change.
  const auth = await startServiceProcess(
    process.env.BENCH_AUTH_ENTRY ?? join(repoRoot, 'services/auth/dist/main.js'),
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
  const clientId = 'bench-oidc-client';
  const clientSecret = randomBytes(24).toString('base64url');
  const peer = await startServiceProcess(join(repoRoot, 'bench/dist/servers/oidc-provider-server.js'), {
    REDIS_URL: context.env.REDIS_URL,
    OIDC_REDIS_KEY_PREFIX: `${context.env.REDIS_KEY_PREFIX}oidc-provider:`,
    OIDC_CLIENT_ID: clientId,
    OIDC_CLIENT_SECRET: clientSecret,
    OIDC_REDIRECT_URI: BENCH_REDIRECT_URI,
    OIDC_SCOPE: SCOPE,
  });
  try {
    const app = await registerPfsApp(auth.url, SCOPE);
    const version = oidcProviderVersion();
    const pfs: TokenEndpoint = {
      label: 'oidc-provider',
      url: `${auth.url}/oauth2/token`,
      authorization: basicAuthorization(app.clientId, app.clientSecret),
    };
    const other: TokenEndpoint = {
      label: `oidc-provider ${version}`,
      url: `${peer.url}/token`,
      authorization: basicAuthorization(clientId, clientSecret),
    };
    const codes = [
      await mintPfsCodes(auth.url, app, poolSize),
      await mintOidcProviderCodes(peer.url, poolSize),
    ];
    const sides = [
      { endpoint: pfs, pid: auth.child.pid! },
      { endpoint: other, pid: peer.child.pid! },
    ];
    const { exchanges, refreshes } = await runRounds(sides, codes);
    for (const [grant, [mine, theirs]] of [
      [EXCHANGE, exchanges],
      [REFRESH, refreshes],
    ] as const) {
      const row = mine.total();
      const peerRow = theirs.total();
      context.record({ ...row, target: { kind: 'vsCeiling', min: 1 }, ceiling: peerRow });
      const name = `token grants/s, ${grant} (${CONNECTIONS} conn): PFS vs oidc-provider ${version} on Redis`;
      context.compare(name, row.requestsPerSecond, 'oidc-provider', peerRow.requestsPerSecond, 'grants/s');
      const [pfsCpu, peerCpu] = [mine.cpuMicrosPerGrant(), theirs.cpuMicrosPerGrant()];
      context.note(
        `token grant server CPU per grant, ${grant} (the process only; Postgres and Redis not counted)`,
        `PFS ${pfsCpu.toFixed(0)} µs vs oidc-provider ${peerCpu.toFixed(0)} µs = ${(peerCpu / pfsCpu).toFixed(2)}`,
      );
    }
  } finally {
    await peer.stop();
    await auth.stop();
  }
}
