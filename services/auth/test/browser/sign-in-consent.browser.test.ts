import { startHttpServer, RunningHttpServer } from '@pfs/http';
import { uniqueEmail } from '@pfs/testing';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/chromium';
import { submitSignIn } from '../support/browser-sign-in';
import { accessTokenKey, hashToken } from '@pfs/contracts';
import { generateTotpCode } from '../../src/security/totp';
import { exchangeCode } from '../support/browser-flow';
import { AuthTestApp, createTestClient, createTestUser, startAuthTestApp } from '../support/auth-test-app';

/** The pages in a real browser: headless Chromium walks sign-in → consent → redirect to the client. */
describe('sign-in and consent in headless Chromium', () => {
  let auth: AuthTestApp;
  let server: RunningHttpServer;
  let clientSite: Server;
  let clientUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    auth = await startAuthTestApp();
    server = await startHttpServer(auth.app, { port: 0, host: '127.0.0.1' });
    // The client application's callback: a page that just says it got the answer.
    clientSite = createServer((_req, res) => res.end('<!doctype html><title>Callback</title><p>Thanks</p>'));
    await new Promise<void>((resolve) => clientSite.listen(0, '127.0.0.1', resolve));
    clientUrl = `http://127.0.0.1:${(clientSite.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => clientSite?.close(resolve));
    await server?.stop();
    await auth?.deps.close();
  });

  it('when a user signs in and allows, then the browser lands on the client callback with a code that buys tokens', async () => {
    const email = uniqueEmail('browser');
    const password = 'correct horse battery';
    await createTestUser(auth.deps, email, password);
    const client = await createTestClient(auth.deps, {
      name: 'Browser Budget',
      scope: 'user:r entries:rw',
      redirectUri: `${clientUrl}/callback`,
    });
    const page = await browser.newPage();
    try {
      await page.goto(
        `${server.url}/oauth2/authorize?response_type=code&client_id=${client.client_id}&state=b-42`,
      );
      await submitSignIn(page, email, password);

      await page.getByRole('heading', { name: 'Allow Browser Budget to use your account?' }).waitFor();
      expect(await page.getByRole('listitem').allTextContents()).toEqual([
        'entries:rw: Read and change your entries, tags, repeats and exports',
        'user:r: Read your profile',
      ]);
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL(`${clientUrl}/callback?**`);

      const landed = new URL(page.url());
      expect(landed.searchParams.get('state')).toBe('b-42');
      const code = landed.searchParams.get('code')!;
      const tokens = await exchangeCode(auth.app, client, { code }).expect(200);
      expect(tokens.body.access_token).toEqual(expect.any(String));

      const cookies = await page.context().cookies(server.url);
      const session = cookies.find((cookie) => cookie.name === 'pfs_session');
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    } finally {
      await page.close();
    }
  });

  it('when a user manages the account in the browser, then the QR code renders, two-factor turns on, and a personal token is created and revoked', async () => {
    const email = uniqueEmail('browser-settings');
    const password = 'correct horse battery';
    await createTestUser(auth.deps, email, password);
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}/account`);
      await submitSignIn(page, email, password);
      await page.getByRole('heading', { name: 'Account settings' }).waitFor();

      await page.getByRole('button', { name: 'Set up two-factor' }).click();
      const qr = page.getByRole('img', { name: 'QR code of your two-factor secret' });
      await qr.waitFor();
      // The image really decodes under the page's CSP (data: images allowed, no scripts needed).
      const decoded = await qr.evaluate((element) => {
        const image = element as unknown as { complete: boolean; naturalWidth: number };
        return image.complete && image.naturalWidth > 0;
      });
      expect(decoded).toBe(true);
      const secret = (await page.locator('#otp-secret').textContent())!;
      await page.getByLabel('Code from the app').fill(generateTotpCode(secret));
      await page.getByRole('button', { name: 'Turn on two-factor' }).click();
      await page.getByText('Two-factor authentication is on.').waitFor();
      expect(await page.locator('#recovery-codes li').count()).toBe(10);

      await page.getByLabel('New token name').fill('Browser token');
      await page.getByRole('button', { name: 'Create token' }).click();
      const token = (await page.locator('#new-token').textContent())!;
      expect(token).toMatch(/^pfs_pt_/);
      expect(await auth.deps.redis.get(accessTokenKey(hashToken(token)))).not.toBeNull();
      await page.getByRole('button', { name: 'Revoke token Browser token' }).click();
      await page.getByText('No personal tokens.').waitFor();
      expect(await auth.deps.redis.get(accessTokenKey(hashToken(token)))).toBeNull();
    } finally {
      await page.close();
    }
  });
});
