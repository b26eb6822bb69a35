import { RunningHttpServer, startHttpServer } from '@pfs/http';
import { testLogger, uniqueEmail } from '@pfs/testing';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axeViolations, hasViewportMeta, smallTargets, weakInputBorders } from '../support/accessibility';
import { buildApiApp } from '../../../api/src/app';
import { loadApiConfig } from '../../../api/src/config';
import { createApiDependencies } from '../../../api/src/dependencies';
import {
  AuthTestApp,
  createTestClient,
  createTestUser,
  isolatedRedisPrefix,
  startAuthTestApp,
} from '../support/auth-test-app';
import { launchChromium } from '../support/chromium';
import { submitSignIn } from '../support/browser-sign-in';
import { linkIn, MailCatcher, startMailCatcher } from '../support/mail-catcher';

/**
 * Issue 17, points 1–3 in headless Chromium: sign-up, verification, reset, password change, sessions and
 * deletion walked as a person would, every page checked with axe-core for WCAG 2.2 AA (zero violations),
 * 44 px targets and the viewport meta; the navigation reflows at 390 px.
 */
describe('the account lifecycle in headless Chromium, WCAG 2.2 AA on every page', () => {
  let mail: MailCatcher;
  let auth: AuthTestApp;
  let server: RunningHttpServer;
  let clientSite: Server;
  let clientUrl: string;
  let browser: Browser;
  const password = 'correct horse battery';

  beforeAll(async () => {
    mail = await startMailCatcher();
    auth = await startAuthTestApp({ SMTP_URL: mail.url, REDIS_KEY_PREFIX: isolatedRedisPrefix('a11y') });
    server = await startHttpServer(auth.app, { port: 0, host: '127.0.0.1' });
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
    await mail?.stop();
  });

  // Each walk loads many pages and runs axe on each: minutes on a loaded machine, not Jest's default 30 s.
  /** A browser of its own; axe is injected into the pages, so their CSP is bypassed for the test only. */
  const newContext = (viewport = { width: 1280, height: 900 }, userAgent?: string): Promise<BrowserContext> =>
    browser.newContext({ bypassCSP: true, viewport, userAgent });

  const audited: string[] = [];

  /** The page passes axe's WCAG 2.2 AA rules, has 44 px targets and the viewport meta. */
  async function audit(page: Page, label: string) {
    await page.waitForLoadState('load');
    const result = {
      label,
      violations: await axeViolations(page),
      smallTargets: await smallTargets(page),
      weakInputBorders: await weakInputBorders(page),
      viewportMeta: await hasViewportMeta(page),
    };
    expect(result).toEqual({
      label,
      violations: [],
      smallTargets: [],
      weakInputBorders: [],
      viewportMeta: true,
    });
    audited.push(label);
  }

  /** The mailed link, pointed at the server this test runs (AUTH_URL is the default). */
  async function mailedLink(email: string, path: string) {
    const link = linkIn(await mail.next(email), path);
    return `${server.url}${link.pathname}${link.search}`;
  }

  async function signIn(page: Page, email: string, secret: string) {
    await page.goto(`${server.url}/login`);
    await submitSignIn(page, email, secret);
  }

  it('when a person signs up, verifies, is refused consent until then, and resets a forgotten password, then every page passes', async () => {
    const email = uniqueEmail('a11y-signup');
    const client = await createTestClient(auth.deps, {
      name: 'Budget Buddy',
      redirectUri: `${clientUrl}/cb`,
    });
    const context = await newContext();
    const page = await context.newPage();
    try {
      const authorize = `${server.url}/oauth2/authorize?response_type=code&client_id=${client.client_id}&state=s1`;
      await page.goto(authorize);
      await audit(page, 'sign-in');
      await page.getByRole('link', { name: 'Create an account' }).click();
      await audit(page, 'sign-up');
      await page.getByLabel('Email').fill('not-an-address');
      await page.getByLabel('Password', { exact: true }).fill('short');
      // The browser's own checks would stop the form: this submits it to see the server's answer.
      await page.evaluate(() => document.querySelector('form')!.setAttribute('novalidate', ''));
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText('The account was not created').waitFor();
      const emailField = page.getByLabel('Email');
      expect(await emailField.getAttribute('aria-describedby')).toBe('email-error');
      expect(await emailField.getAttribute('aria-invalid')).toBe('true');
      await audit(page, 'sign-up with errors');

      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { name: 'Verify your email address first' }).waitFor();
      await audit(page, 'verify first (instead of consent)');

      await page.goto(await mailedLink(email, '/verify-email'));
      await page.getByRole('heading', { name: 'Email verified' }).waitFor();
      await audit(page, 'email verified');

      await page.goto(authorize);
      await page.getByRole('heading', { name: 'Allow Budget Buddy to use your account?' }).waitFor();
      expect(await page.locator('.signed-in-as').textContent()).toContain(`Signed in as ${email}`);
      await audit(page, 'consent');
      await page.getByRole('button', { name: 'Not you? Sign in as someone else' }).click();
      await page.getByRole('heading', { name: 'Sign in to PFS' }).waitFor();
      expect(new URL(page.url()).searchParams.get('return_to')).toContain('/oauth2/authorize?');

      await submitSignIn(page, email, 'wrong password');
      await page.getByText('The email or password is incorrect.').waitFor();
      expect(await page.getByLabel('Password', { exact: true }).getAttribute('aria-describedby')).toBe(
        'form-error',
      );
      await audit(page, 'sign-in with error');

      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await audit(page, 'forgot password');
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Send the link' }).click();
      await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
      await audit(page, 'check your mail');
      await page.goto(await mailedLink(email, '/reset-password'));
      await audit(page, 'reset password');
      await page.getByLabel('New password').fill('a new secret phrase');
      await page.getByRole('button', { name: 'Set the new password' }).click();
      await page.getByRole('heading', { name: 'Password changed' }).waitFor();
      await audit(page, 'password changed');

      // The new password opens the consent again, and Allow reaches the client.
      await page.goto(authorize);
      await submitSignIn(page, email, 'a new secret phrase');
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL(`${clientUrl}/cb?**`);
      expect(new URL(page.url()).searchParams.get('code')).toEqual(expect.any(String));
    } finally {
      await context.close();
    }
  }, 180_000);

  it('when a person changes the password, ends sessions and deletes the account, then every page passes and the account is gone', async () => {
    const email = uniqueEmail('a11y-account');
    const phone = await newContext({ width: 390, height: 844 }, 'Phone Browser/1.0');
    const laptop = await newContext(undefined, 'Laptop Browser/1.0');
    const page = await laptop.newPage();
    const small = await phone.newPage();
    try {
      await page.goto(`${server.url}/signup`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { name: 'Account settings' }).waitFor();
      await page.goto(await mailedLink(email, '/verify-email'));
      await signIn(small, email, password);
      await small.getByRole('heading', { name: 'Account settings' }).waitFor();
      await audit(small, 'account page at 390 px');
      // At 390 px nothing scrolls sideways and the navigation wraps onto several lines.
      const layout = await small.evaluate(() => {
        const items = Array.from(document.querySelectorAll('nav > *')).map(
          (item) => item.getBoundingClientRect().top,
        );
        return {
          overflow: document.documentElement.scrollWidth > window.innerWidth,
          lines: new Set(items).size,
        };
      });
      expect(layout).toEqual({ overflow: false, lines: expect.any(Number) });
      expect(layout.lines).toBeGreaterThan(1);

      await page.goto(`${server.url}/account`);
      await audit(page, 'account page');
      expect(await page.getByRole('row', { name: /Phone Browser\/1\.0/ }).count()).toBe(1);
      await page.getByLabel('Current password').fill('not it');
      await page.getByLabel('New password').fill('another good phrase');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('The current password is incorrect.').waitFor();
      expect(await page.getByLabel('Current password').getAttribute('aria-describedby')).toBe(
        'current_password-error',
      );
      await audit(page, 'password change with error');
      await page.getByLabel('Current password').fill(password);
      await page.getByLabel('New password').fill('another good phrase');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Password changed. 1 other sign-in(s) ended.').waitFor();
      await small.reload();
      await small.getByRole('heading', { name: 'Sign in to PFS' }).waitFor();

      await page.getByRole('button', { name: 'Set up two-factor' }).click();
      await audit(page, 'two-factor setup');
      await page.goto(`${server.url}/developer`);
      await audit(page, 'developer');

      await signIn(small, email, 'another good phrase');
      await page.goto(`${server.url}/account`);
      await page.getByRole('button', { name: 'Sign out everywhere' }).click();
      await page.getByRole('heading', { name: 'Sign in to PFS' }).waitFor();
      await small.goto(`${server.url}/account`);
      await small.getByRole('heading', { name: 'Sign in to PFS' }).waitFor();

      await signIn(page, email, 'another good phrase');
      await page.getByRole('link', { name: 'Delete your account…' }).click();
      await page.getByRole('heading', { name: 'Delete your account' }).waitFor();
      await audit(page, 'delete account');
      await page.getByRole('button', { name: 'Prepare a download of all my data' }).click();
      await page.locator('#user-data-preparing').waitFor();
      await page.getByLabel('Your password, to confirm').fill('wrong');
      await page.getByRole('button', { name: 'Delete my account for good' }).click();
      await page.getByText('The password is incorrect.').waitFor();
      await audit(page, 'delete account with error');
      await page.getByLabel('Your password, to confirm').fill('another good phrase');
      await page.getByRole('button', { name: 'Delete my account for good' }).click();
      await page.getByRole('heading', { name: 'Account deleted' }).waitFor();
      await audit(page, 'account deleted');

      const user = await auth.deps.repos.users.findByEmail(email);
      expect(user && (await auth.deps.accountDeletions.stateOf(user.id))).toEqual(expect.any(String));
      await signIn(page, email, 'another good phrase');
      await page.getByText('The email or password is incorrect.').waitFor();
    } finally {
      await laptop.close();
      await phone.close();
    }
  }, 180_000);

  it('when a page breaks the rules, then the checks see it (they can fail)', async () => {
    const context = await newContext();
    const page = await context.newPage();
    try {
      await page.setContent(
        '<html><body><img src="x.png"><input type="text" style="border:1px solid #ddd;height:20px"><button style="height:20px">x</button></body></html>',
      );
      expect((await axeViolations(page)).map((violation) => violation.id)).toEqual(
        expect.arrayContaining(['image-alt', 'label', 'html-has-lang']),
      );
      expect(await smallTargets(page)).toHaveLength(2);
      expect(await weakInputBorders(page)).toHaveLength(1);
      expect(await hasViewportMeta(page)).toBe(false);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('when a browser asks for a page that does not exist or an authorization fails, then it gets an HTML page that passes', async () => {
    const context = await newContext({ width: 390, height: 844 });
    const page = await context.newPage();
    try {
      const missing = await page.goto(`${server.url}/no-such-page`);
      expect(missing?.status()).toBe(404);
      expect(missing?.headers()['content-type']).toMatch(/^text\/html/);
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      await audit(page, 'not found');
      const refused = await page.goto(`${server.url}/oauth2/authorize?response_type=code&client_id=nobody`);
      expect(refused?.status()).toBe(400);
      await audit(page, 'authorization error');
      // Programs keep the JSON error model.
      const json = await page.request.get(`${server.url}/no-such-page`, {
        headers: { Accept: 'application/json' },
      });
      expect(json.status()).toBe(404);
      expect(await json.json()).toMatchObject({ error_id: 'error.route.not_found' });
    } finally {
      await context.close();
    }
  }, 180_000);

  it('when a two-factor user signs in, then the code step passes, with its error tied to the field', async () => {
    const email = uniqueEmail('a11y-otp');
    await createTestUser(auth.deps, email, password, { enableOtp: true });
    const context = await newContext();
    const page = await context.newPage();
    try {
      await signIn(page, email, password);
      await page.getByRole('heading', { name: 'Enter your two-factor code' }).waitFor();
      await audit(page, 'two-factor code');
      await page.getByLabel('Code from your authenticator app, or a recovery code').fill('000000');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByText('That code is not right.').waitFor();
      expect(
        await page
          .getByLabel('Code from your authenticator app, or a recovery code')
          .getAttribute('aria-describedby'),
      ).toBe('form-error');
      await audit(page, 'two-factor code with error');
    } finally {
      await context.close();
    }
  }, 180_000);

  it("when the API's /docs page is opened on a phone, then it has the viewport meta and passes", async () => {
    const api = await createApiDependencies(loadApiConfig(process.env), testLogger());
    const apiServer = await startHttpServer(buildApiApp(api), { port: 0, host: '127.0.0.1' });
    const context = await newContext({ width: 390, height: 844 });
    try {
      const page = await context.newPage();
      await page.goto(`${apiServer.url}/docs`);
      await page.getByRole('heading', { name: 'PFS resource API' }).waitFor();
      expect(await hasViewportMeta(page)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      audited.push('API docs');
    } finally {
      await context.close();
      await apiServer.stop();
      await api.close();
    }
    expect(audited.length).toBeGreaterThanOrEqual(22);
  }, 180_000);
});
