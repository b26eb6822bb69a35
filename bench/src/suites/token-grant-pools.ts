import { createHash, randomBytes } from 'node:crypto';

/** A code to exchange, with the PKCE verifier of the challenge it was issued for. */
export interface PendingCode {
  code: string;
  verifier: string;
}

export interface RegisteredApp {
  clientId: string;
  clientSecret: string;
  /** The signed-in user's session and CSRF cookies (the bench sets its own CSRF value: double submit). */
  cookie: string;
  csrfToken: string;
}

export const BENCH_REDIRECT_URI = 'https://client.example.test/callback';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function postPage(url: string, cookie: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
    body: form(fields),
  });
}

/**
 * Through the auth service's own pages, as a developer would: signs up a user (which signs them in) and
 * registers a confidential app with `scope`. Nothing of the service's internals is reached around HTTP.
 */
export async function registerPfsApp(authUrl: string, scope: string): Promise<RegisteredApp> {
  const csrfToken = randomBytes(32).toString('base64url');
  const signUp = await postPage(`${authUrl}/signup`, `pfs_csrf=${csrfToken}`, {
    email: `bench-${randomBytes(6).toString('hex')}@example.test`,
    password: 'bench password of the tokens suite',
    csrf_token: csrfToken,
  });
  const session = signUp.headers.getSetCookie().find((cookie) => cookie.startsWith('pfs_session='));
  if (signUp.status !== 303 || !session) throw new Error(`sign-up answered ${signUp.status}`);
  const cookie = `pfs_csrf=${csrfToken}; ${session.split(';')[0]}`;
  const registered = await postPage(`${authUrl}/developer/apps`, cookie, {
    name: 'Bench app',
    redirect_uri: BENCH_REDIRECT_URI,
    scope,
    csrf_token: csrfToken,
  });
  const page = await registered.text();
  const clientId = /id="client-id">([^<]+)</.exec(page)?.[1];
  const clientSecret = /id="client-secret">([^<]+)</.exec(page)?.[1];
  if (!clientId || !clientSecret) throw new Error(`app registration answered ${registered.status}`);
  return { clientId, clientSecret, cookie, csrfToken };
}

/** One code through the consent form's "Allow" (the signed-in user's session), with a PKCE S256 challenge. */
async function approveOnce(authUrl: string, app: RegisteredApp): Promise<PendingCode> {
  const verifier = randomBytes(32).toString('base64url');
  const answer = await postPage(`${authUrl}/oauth2/authorize`, app.cookie, {
    response_type: 'code',
    client_id: app.clientId,
    redirect_uri: BENCH_REDIRECT_URI,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    csrf_token: app.csrfToken,
    decision: 'allow',
  });
  const code = new URL(answer.headers.get('location') ?? '', BENCH_REDIRECT_URI).searchParams.get('code');
  if (answer.status !== 302 || !code) throw new Error(`authorize answered ${answer.status}: no code`);
  return { code, verifier };
}

/** `count` codes of PFS, each from its own consent (its own grant), 8 approvals in flight. */
export async function mintPfsCodes(
  authUrl: string,
  app: RegisteredApp,
  count: number,
): Promise<PendingCode[]> {
  const codes: PendingCode[] = [];
  const worker = async () => {
    while (codes.length < count) codes.push(await approveOnce(authUrl, app));
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return codes.slice(0, count);
}

/** `count` codes of the oidc-provider peer, minted by its own models (bench/src/servers/oidc-provider-server.ts). */
export async function mintOidcProviderCodes(providerUrl: string, count: number): Promise<PendingCode[]> {
  const answer = await fetch(`${providerUrl}/bench/codes?count=${count}`);
  if (!answer.ok) throw new Error(`oidc-provider minting answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as PendingCode[];
}

/** The token request bodies of a code exchange (PKCE verifier, redirect URI as at the authorize step). */
export const codeExchangeBodies = (codes: PendingCode[]) =>
  codes.map(({ code, verifier }) =>
    form({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: BENCH_REDIRECT_URI,
    }),
  );

/** The token request bodies of a refresh grant, one fresh refresh token each (both sides rotate them). */
export const refreshBodies = (refreshTokens: string[]) =>
  refreshTokens.map((token) => form({ grant_type: 'refresh_token', refresh_token: token }));

export const basicAuthorization = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
