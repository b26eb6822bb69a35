import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchContext } from '../bench-context';
import { dataSize, Measurement, measurePool } from '../measure';
import { startServiceProcess } from '../service-process';
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
const SCOPE = 'user:r entries:rw';

/** One side of the comparison: where its token endpoint is and how the client authenticates there. */
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

/** Exchanges each code once; returns the measurement and the refresh tokens the exchanges issued. */
async function exchangeCodes(endpoint: TokenEndpoint, codes: PendingCode[]) {
  const refreshTokens: string[] = [];
  const measurement = await measurePool({
    name: `POST /oauth2/token code exchange (PKCE S256) vs ${endpoint.label}`,
    url: endpoint.url,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: endpoint.authorization },
    bodies: codeExchangeBodies(codes),
    connections: CONNECTIONS,
    onBody: (status, body) => {
      if (status === 200) refreshTokens.push((JSON.parse(body) as { refresh_token: string }).refresh_token);
    },
  });
  return { measurement, refreshTokens };
}

/** Uses each refresh token once (each answer carries a new one: rotation on both sides). */
function refresh(endpoint: TokenEndpoint, refreshTokens: string[]): Promise<Measurement> {
  return measurePool({
    name: `POST /oauth2/token refresh grant (rotation) vs ${endpoint.label}`,
    url: endpoint.url,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: endpoint.authorization },
    bodies: refreshBodies(refreshTokens),
    connections: CONNECTIONS,
  });
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
  const auth = await startServiceProcess(
    join(repoRoot, 'services/auth/dist/main.js'),
    {
      ...context.env,
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
    const pfsCodes = await mintPfsCodes(auth.url, app, poolSize);
    const otherCodes = await mintOidcProviderCodes(peer.url, poolSize);
    const pfsExchange = await exchangeCodes(pfs, pfsCodes);
    const otherExchange = await exchangeCodes(other, otherCodes);
    const pfsRefresh = await refresh(pfs, pfsExchange.refreshTokens);
    const otherRefresh = await refresh(other, otherExchange.refreshTokens);
    for (const [kind, mine, theirs] of [
      ['code exchange', pfsExchange.measurement, otherExchange.measurement],
      ['refresh grant', pfsRefresh, otherRefresh],
    ] as const) {
      context.record({ ...mine, target: { kind: 'vsCeiling', min: 1 }, ceiling: theirs });
      const name = `token grants/s, ${kind} (${CONNECTIONS} conn): PFS vs oidc-provider ${version} on Redis`;
      context.compare(name, mine.requestsPerSecond, 'oidc-provider', theirs.requestsPerSecond, 'grants/s');
    }
  } finally {
    await peer.stop();
    await auth.stop();
  }
}
