import { closeRedis, connectRedis, createRedisClient } from '@pfs/redis';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Adapter } from 'oidc-provider';
import { Pool } from 'pg';
import { OIDC_MODEL_SCHEMA, OidcPostgresAdapter } from './oidc-postgres-adapter';
import { OidcRedisAdapter } from './oidc-redis-adapter';

/**
 * The peer of PFS's token endpoint in the `tokens` suite: panva's oidc-provider on Redis (its example adapter) or,
 * with OIDC_ADAPTER=postgres, on Postgres (one jsonb table, oidc-postgres-adapter.ts; the table is emptied at start),
 * one confidential client (client_secret_basic), PKCE required, refresh tokens rotated at every use, opaque
 * tokens and no ID token (no `openid` scope), as PFS issues them. `GET /bench/codes?count=N` mints N codes of
 * N grants with the library's own models before the timed window (the interactive sign-in and consent are not
 * what is measured) and answers them with their PKCE verifiers. Prints its URL on stdout.
 * Env: OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_REDIRECT_URI, OIDC_SCOPE; on Redis REDIS_URL and
 * OIDC_REDIS_KEY_PREFIX; on Postgres DATABASE_URL (its own database), OIDC_PG_POOL_SIZE (default 10, as PFS's).
 */
const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const clientId = env('OIDC_CLIENT_ID');
const redirectUri = env('OIDC_REDIRECT_URI');
const scope = env('OIDC_SCOPE');
const ACCOUNT_ID = 'bench-account';

/** The adapter factory of the configured store, and how to close the store. */
async function openStore(): Promise<{ adapter: (name: string) => Adapter; close: () => Promise<void> }> {
  if (process.env.OIDC_ADAPTER === 'postgres') {
    const pool = new Pool({
      connectionString: env('DATABASE_URL'),
      max: Number(process.env.OIDC_PG_POOL_SIZE ?? 10),
      // Named so the bench can read its backends' CPU (bench/src/postgres-cpu.ts).
      application_name: 'oidc-provider',
    });
    await pool.query(OIDC_MODEL_SCHEMA);
    await pool.query('TRUNCATE oidc_model');
    return { adapter: (name) => new OidcPostgresAdapter(pool, name), close: () => pool.end() };
  }
  const redis = createRedisClient({ url: env('REDIS_URL'), keyPrefix: env('OIDC_REDIS_KEY_PREFIX') });
  await connectRedis(redis);
  return { adapter: (name) => new OidcRedisAdapter(redis, name), close: () => closeRedis(redis) };
}

async function main() {
  const store = await openStore();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    adapter: store.adapter,
    clients: [
      {
        client_id: clientId,
        client_secret: env('OIDC_CLIENT_SECRET'),
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    scopes: ['openid', 'offline_access', ...scope.split(' ')],
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    rotateRefreshToken: true,
    ttl: { AuthorizationCode: 600, AccessToken: 3600 },
    cookies: { keys: [randomBytes(32).toString('hex')] },
  });
  const client = await provider.Client.find(clientId);
  if (!client) throw new Error('the bench client is not configured');

  async function mintCode() {
    const grant = new provider.Grant({ accountId: ACCOUNT_ID, clientId });
    grant.addOIDCScope(`offline_access ${scope}`);
    const grantId = await grant.save();
    const verifier = randomBytes(32).toString('base64url');
    const code = await new provider.AuthorizationCode({
      client: client!,
      accountId: ACCOUNT_ID,
      grantId,
      gty: 'authorization_code',
      scope: `offline_access ${scope}`,
      redirectUri,
      codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
      codeChallengeMethod: 'S256',
      expiresWithSession: false,
    }).save();
    return { code, verifier };
  }

  const callback = provider.callback();
  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname !== '/bench/codes') return callback(req, res);
    const count = Number(url.searchParams.get('count'));
    Promise.all(Array.from({ length: count }, mintCode)).then(
      (codes) => res.setHeader('Content-Type', 'application/json').end(JSON.stringify(codes)),
      (error: Error) => res.writeHead(500).end(error.stack),
    );
  });
  process.stdout.write(`${JSON.stringify({ url: issuer })}\n`);
  process.on('SIGTERM', () => server.close(() => void store.close().then(() => process.exit(0))));
}

void main();
