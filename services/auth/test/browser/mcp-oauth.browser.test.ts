import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InvalidGrantError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { testLogger, uniqueEmail } from '@pfs/testing';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { buildApiApp } from '../../../api/src/app';
import { loadApiConfig } from '../../../api/src/config';
import { type ApiDependencies, createApiDependencies } from '../../../api/src/dependencies';
import { issueToken } from '../../../api/test/support/api-test-app';
import { revokeClientAccess } from '../../src/use-cases/revoke-grants.use-case';
import { type AuthTestApp, createTestUser, startAuthTestApp } from '../support/auth-test-app';
import { launchChromium } from '../support/chromium';
import { submitSignIn } from '../support/browser-sign-in';

/** A loopback HTTP server whose handler is set later (the apps need its URL in their config first). */
async function listen(): Promise<{
  server: Server;
  url: string;
  handle: (listener: RequestListener) => void;
}> {
  let listener: RequestListener = (_req, res) => res.end();
  const server = createServer((req, res) => listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, url, handle: (next) => (listener = next) };
}

/** The assistant's side: what the SDK asks an OAuth client to keep, in memory. */
class AssistantProvider implements OAuthClientProvider {
  information?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  constructor(
    readonly redirectUrl: string,
    private readonly scope?: string,
  ) {}
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test Assistant',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.scope ? { scope: this.scope } : {}),
    };
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/**
 * An assistant connects to /mcp with the official SDK's client and its OAuth support: the 401 sends it to
 * the protected resource metadata, it registers itself (RFC 7591), the user signs in and allows in headless
 * Chromium, the SDK exchanges the code (PKCE, no secret), and the tools read and write the user's data.
 */
describe('an MCP client authorizes itself through OAuth (SDK client, Chromium)', () => {
  let auth: AuthTestApp;
  let apiDeps: ApiDependencies;
  let authSite: Awaited<ReturnType<typeof listen>>;
  let apiSite: Awaited<ReturnType<typeof listen>>;
  let callbackSite: Awaited<ReturnType<typeof listen>>;
  let browser: Browser;
  const codes: string[] = [];

  beforeAll(async () => {
    [authSite, apiSite, callbackSite] = await Promise.all([listen(), listen(), listen()]);
    const urls = { AUTH_URL: authSite.url, BASE_URL: apiSite.url };
    auth = await startAuthTestApp(urls);
    apiDeps = await createApiDependencies(loadApiConfig({ ...process.env, ...urls }), testLogger());
    authSite.handle(auth.app);
    apiSite.handle(buildApiApp(apiDeps));
    callbackSite.handle((req, res) => {
      const code = new URL(req.url ?? '/', callbackSite.url).searchParams.get('code');
      if (code) codes.push(code);
      res.setHeader('Content-Type', 'text/html');
      res.end('<!doctype html><title>Connected</title><p>You can close this window.</p>');
    });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    for (const site of [authSite, apiSite, callbackSite]) {
      await new Promise((resolve) => site?.server.close(resolve));
    }
    await apiDeps?.close();
    await auth?.deps.close();
  });

  /** The user signs in and allows in Chromium; resolves with the code the callback received. */
  async function consentInBrowser(url: URL, email: string, password: string): Promise<string> {
    const page = await browser.newPage();
    try {
      await page.goto(url.toString());
      await submitSignIn(page, email, password);
      await page.getByRole('heading', { name: 'Allow Test Assistant to use your account?' }).waitFor();
      await page.getByText('This application registered itself').waitFor();
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL(`${callbackSite.url}/callback?**`);
      const landed = new URL(page.url());
      expect(landed.searchParams.get('error')).toBeNull();
      return landed.searchParams.get('code')!;
    } finally {
      await page.close();
    }
  }

  const transportFor = (provider: AssistantProvider) =>
    new StreamableHTTPClientTransport(new URL(`${apiSite.url}/mcp`), { authProvider: provider });

  async function connectThroughOAuth(provider: AssistantProvider, email: string, password: string) {
    const first = transportFor(provider);
    await expect(new Client({ name: 'assistant', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(provider.authorizationUrl).toBeDefined();
    const code = await consentInBrowser(provider.authorizationUrl!, email, password);
    await first.finishAuth(code);
    const client = new Client({ name: 'assistant', version: '1.0.0' });
    await client.connect(transportFor(provider));
    return client;
  }

  async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
    const result = await client.callTool({ name, arguments: args });
    const content = result.content as Array<{ type: string; text: string }>;
    return { isError: result.isError === true, body: JSON.parse(content[0].text) };
  }

  it('when the assistant connects, then it discovers, registers, is allowed in the browser, and reads and writes real data', async () => {
    const email = uniqueEmail('mcp-oauth');
    const password = 'correct horse battery';
    const { user } = await createTestUser(auth.deps, email, password);
    const provider = new AssistantProvider(`${callbackSite.url}/callback`);
    const client = await connectThroughOAuth(provider, email, password);

    // Registration: a public client with the scopes of the protected resource metadata.
    expect(provider.information).toMatchObject({ token_endpoint_auth_method: 'none' });
    const registered = await auth.deps.repos.clients.findById(provider.information!.client_id);
    expect(registered).toMatchObject({
      name: 'Test Assistant',
      tokenEndpointAuthMethod: 'none',
      scope: 'accounts:r budgets:r categories:r entries:rw user:r',
    });
    // The authorization request carried PKCE S256 and the resource indicator of /mcp (RFC 8707).
    expect(provider.authorizationUrl!.searchParams.get('code_challenge_method')).toBe('S256');
    expect(provider.authorizationUrl!.searchParams.get('resource')).toBe(`${apiSite.url}/mcp`);
    expect(provider.saved?.access_token).toEqual(expect.any(String));

    // Its data: an account and a category made over REST with the same token's user.
    const { token: seedToken } = await issueToken(apiDeps, user.id, 'accounts:rw categories:rw');
    const headers = { Authorization: `Bearer ${seedToken}`, 'Content-Type': 'application/json' };
    const account = await fetch(`${apiSite.url}/accounts`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Wallet', currency: { code: 'EUR' } }),
    });
    const category = await fetch(`${apiSite.url}/categories`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Food', type: 'expense' }),
    });
    const accountId = account.headers.get('location')!.split('/').pop();
    const categoryId = category.headers.get('location')!.split('/').pop();

    const created = await call(client, 'create_entry', {
      amount: -9.5,
      currency: 'EUR',
      date: '2025-07-01',
      account: accountId,
      category: categoryId,
      desc: 'Groceries',
    });
    expect(created).toMatchObject({ isError: false, body: { amount: -9.5, desc: 'Groceries' } });
    const accounts = await call(client, 'list_accounts');
    expect(accounts.body.accounts).toEqual([expect.objectContaining({ id: accountId, balance: -9.5 })]);
    await client.close();

    // An access token the API no longer knows: the SDK refreshes as a public client (no secret) and goes on.
    const refreshToken = provider.saved!.refresh_token;
    provider.saved = { ...provider.saved!, access_token: 'no-longer-valid' };
    const resumed = new Client({ name: 'assistant', version: '1.0.0' });
    await resumed.connect(transportFor(provider));
    expect(provider.saved.access_token).not.toBe('no-longer-valid');
    expect(provider.saved.refresh_token).not.toBe(refreshToken);
    expect((await call(resumed, 'list_entries')).body.total).toBe(1);
    await resumed.close();
  });

  it('when the user revokes the assistant, then its access and refresh tokens are refused at once', async () => {
    const email = uniqueEmail('mcp-revoke');
    const password = 'correct horse battery';
    const { user } = await createTestUser(auth.deps, email, password);
    const provider = new AssistantProvider(`${callbackSite.url}/callback`);
    const client = await connectThroughOAuth(provider, email, password);
    expect((await call(client, 'list_entries')).body).toMatchObject({ entries: [], total: 0 });
    await client.close();

    const apps = await auth.deps.repos.grants.listConnectedApps(user.id);
    expect(apps).toEqual([expect.objectContaining({ clientName: 'Test Assistant' })]);
    const before = await fetch(`${apiSite.url}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${provider.saved!.access_token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(before.status).toBe(200);
    // "Revoke access" on the account page: every grant of the app for the user ends.
    await revokeClientAccess(auth.deps, { userId: user.id, clientId: provider.information!.client_id });
    const after = await fetch(`${apiSite.url}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${provider.saved!.access_token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
    // The SDK meets the 401 and tries its refresh token: revoked with the grant, so invalid_grant.
    await expect(
      new Client({ name: 'assistant', version: '1.0.0' }).connect(transportFor(provider)),
    ).rejects.toBeInstanceOf(InvalidGrantError);
  });
});
