import { closeRedis, connectRedis, createRedisClient } from '@pfs/redis';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { OidcRedisAdapter } from './oidc-redis-adapter';

/**
 * The peer of PFS's token endpoint in the `tokens` suite: panva's oidc-provider on Redis (its example adapter),
 * one confidential client (client_secret_basic), PKCE required, refresh tokens rotated at every use, opaque
 * tokens and no ID token (no `openid` scope), as PFS issues them. `GET /bench/codes?count=N` mints N codes of
 * N grants with the library's own models before the timed window (the interactive sign-in and consent are not
 * what is measured) and answers them with their PKCE verifiers. Prints its URL on stdout.
 * Env: REDIS_URL, OIDC_REDIS_KEY_PREFIX, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_REDIRECT_URI, OIDC_SCOPE.
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

async function main() {
  const redis = createRedisClient({ url: env('REDIS_URL'), keyPrefix: env('OIDC_REDIS_KEY_PREFIX') });
  await connectRedis(redis);
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    adapter: (name: string) => new OidcRedisAdapter(redis, name),
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
  process.on('SIGTERM', () => server.close(() => void closeRedis(redis).then(() => process.exit(0))));
}

void main();
