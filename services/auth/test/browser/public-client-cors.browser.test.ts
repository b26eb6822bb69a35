import { RunningHttpServer, startHttpServer } from '@pfs/http';
import { testLogger, uniqueEmail } from '@pfs/testing';
import type { Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/chromium';
import { submitSignIn } from '../support/browser-sign-in';
import { buildApiApp } from '../../../api/src/app';
import { loadApiConfig } from '../../../api/src/config';
import { ApiDependencies, createApiDependencies } from '../../../api/src/dependencies';
import { BrowserAppConfig, startBrowserAppSite } from '../support/browser-app-site';
import { AuthTestApp, createTestClient, createTestUser, startAuthTestApp } from '../support/auth-test-app';

/**
 * Issue 14 point 8: a browser public client (authorization code + PKCE, no secret) on its own origin works end
 * to end through CORS: sign-in and consent on the auth host, then fetch to the token endpoint and to the API.
 */
describe('a browser public client on another origin, in headless Chromium', () => {
  let auth: AuthTestApp;
  let api: ApiDependencies;
  let authServer: RunningHttpServer;
  let apiServer: RunningHttpServer;
  let site: { server: Server; origin: string };
  let foreignSite: { server: Server; origin: string };
  let browser: Browser;
  let appConfig: BrowserAppConfig;

  beforeAll(async () => {
    // The app's origin must be known before the services read CORS_ORIGINS.
    site = await startBrowserAppSite('127.0.0.2', () => appConfig);
    foreignSite = await startBrowserAppSite('127.0.0.3', () => appConfig);
    const env = { CORS_ORIGINS: site.origin };
    auth = await startAuthTestApp(env);
    api = await createApiDependencies(loadApiConfig({ ...process.env, ...env }), testLogger());
    authServer = await startHttpServer(auth.app, { port: 0, host: '127.0.0.1' });
    apiServer = await startHttpServer(buildApiApp(api), { port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    for (const server of [site?.server, foreignSite?.server]) {
      await new Promise((resolve) => server?.close(resolve));
    }
    await apiServer?.stop();
    await authServer?.stop();
    await api?.close();
    await auth?.deps.close();
  });

  it('when the user signs in and allows, then the page buys tokens with PKCE and reads GET /me and its headers; a page on another origin cannot', async () => {
    const email = uniqueEmail('cors-browser');
    const password = 'correct horse battery';
    await createTestUser(auth.deps, email, password);
    const client = await createTestClient(auth.deps, {
      name: 'Browser Budget',
      scope: 'user:r',
      redirectUri: `${site.origin}/callback`,
      implicit: true, // a public client: no secret in the page, PKCE required
    });
    appConfig = { authUrl: authServer.url, apiUrl: apiServer.url, clientId: client.client_id };
    const page = await browser.newPage();
    try {
      await page.goto(`${site.origin}/`);
      await submitSignIn(page, email, password);
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL(`${site.origin}/callback?**`);
      await page.locator('#result').filter({ hasText: '{' }).waitFor();
      const result = JSON.parse((await page.locator('#result').textContent())!);

      expect(result).toMatchObject({
        stateMatches: true,
        tokenStatus: 200,
        tokenType: 'bearer',
        meStatus: 200,
        email,
        'X-RateLimit-Limit': expect.stringMatching(/^\d+$/),
        'X-RateLimit-Remaining': expect.stringMatching(/^\d+$/),
        ETag: expect.stringMatching(/^"/),
      });
      expect(result.error).toBeUndefined();

      // The same call from an origin not in CORS_ORIGINS: the browser withholds the answer.
      // (Runs in the page: fetch rejects when CORS withholds the answer.)
      const callFromPage = (origin: string) =>
        page.goto(`${origin}/other`).then(() =>
          page.evaluate(
            ([url, token]) =>
              fetch(`${url}/me`, { headers: { Authorization: `Bearer ${token}` } }).then(
                (answer) => `read ${answer.status}`,
                () => 'blocked',
              ),
            [apiServer.url, result.accessToken as string],
          ),
        );
      expect(await callFromPage(foreignSite.origin)).toBe('blocked');
      expect(await callFromPage(site.origin)).toBe('read 200');
    } finally {
      await page.close();
    }
  });
});
