import { ensureDatabase } from '@pfs/resource-store';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'pg';
import type { BenchContext } from '../bench-context';
import { startServiceProcess } from '../service-process';
import { basicAuthorization, BENCH_REDIRECT_URI } from './token-grant-pools';

/** The peers of the token-grant comparison (token-grants.ts): panva's oidc-provider on Redis and on Postgres. */

const repoRoot = join(__dirname, '../../..');
export const SCOPE = 'user:r entries:rw';

/** Where a side's token endpoint is and how the client authenticates there. */
export interface TokenEndpoint {
  /** Who answers there (each round is named after it; the recorded rows are named by `measureTokenGrants`). */
  label: string;
  url: string;
  authorization: string;
}

/** One side of the comparison: where its token endpoint is and how the client authenticates there. */
export interface Side {
  endpoint: TokenEndpoint;
  /** The server's process, whose CPU time each round reads. */
  pid: number;
  /** Where its Postgres backends are found (a pool on its database, its `application_name`), if it uses Postgres. */
  postgres?: { pool: Pool; application: string };
}

/** The pinned version of the peer (bench/package.json), printed with its figures. */
export function oidcProviderVersion(): string {
  const manifest = join(repoRoot, 'bench/node_modules/oidc-provider/package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** A peer: oidc-provider on one store, its process, and its side of the comparison. */
export interface Peer {
  store: 'Redis' | 'Postgres';
  /** Its base URL (codes are minted at `/bench/codes`). */
  url: string;
  side: Side;
  stop(): Promise<void>;
}

/** Starts oidc-provider on `store` with the bench client; on Postgres, in its own database `<bench db>_oidc`. */
export async function startPeer(
  context: BenchContext,
  store: Peer['store'],
  client: { id: string; secret: string },
  version: string,
): Promise<Peer> {
  const common = {
    OIDC_CLIENT_ID: client.id,
    OIDC_CLIENT_SECRET: client.secret,
    OIDC_REDIRECT_URI: BENCH_REDIRECT_URI,
    OIDC_SCOPE: SCOPE,
  };
  const entry = join(repoRoot, 'bench/dist/servers/oidc-provider-server.js');
  const endpoint = (url: string): TokenEndpoint => ({
    label: `oidc-provider ${version}/${store}`,
    url: `${url}/token`,
    authorization: basicAuthorization(client.id, client.secret),
  });
  if (store === 'Redis') {
    const peer = await startServiceProcess(entry, {
      ...common,
      REDIS_URL: context.env.REDIS_URL,
      OIDC_REDIS_KEY_PREFIX: `${context.env.REDIS_KEY_PREFIX}oidc-provider:`,
    });
    return {
      store,
      url: peer.url,
      side: { endpoint: endpoint(peer.url), pid: peer.child.pid! },
      stop: () => peer.stop(),
    };
  }
  const url = new URL(context.env.DATABASE_URL);
  url.pathname = `${url.pathname}_oidc`;
  await ensureDatabase(url.toString());
  const peer = await startServiceProcess(entry, {
    ...common,
    OIDC_ADAPTER: 'postgres',
    DATABASE_URL: url.toString(),
  });
  // Only to find the peer's backends in pg_stat_activity (their CPU is read from /proc).
  const pool = new Pool({ connectionString: url.toString(), max: 1, application_name: 'pfs-bench' });
  return {
    store,
    url: peer.url,
    side: {
      endpoint: endpoint(peer.url),
      pid: peer.child.pid!,
      postgres: { pool, application: 'oidc-provider' },
    },
    async stop() {
      await pool.end();
      await peer.stop();
    },
  };
}
