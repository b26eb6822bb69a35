import {
  isProcessAlive as alive,
  logLinesOf as lines,
  startNodeProcess,
  uniqueEmail,
  waitForOutput,
  type ServiceProcess,
} from '@pfs/testing';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { AuthDependencies } from '../../src/dependencies';
import {
  createTestClient,
  createTestUser,
  isolatedRedisPrefix,
  startAuthTestApp,
} from '../support/auth-test-app';
import { connectToWorker, requestOver, type Answer } from '../support/worker-socket';

/**
 * AUTH_WORKERS=N: the authorization server as N node:cluster workers behind one port. Each step of a
 * browser's sign-in and an app's token requests goes over a new connection that /proc shows was accepted by
 * the other worker than the step before: a session, CSRF cookie, code or refresh token kept in one worker's
 * memory would fail the next step. SIGTERM stops every worker and frees the port.
 */
const entry = join(__dirname, '../../dist/main.js');
// Two auth processes start here: on a loaded machine, a minute and more.
jest.setTimeout(180_000);

const password = 'correct horse battery';
const inputValue = (html: string, name: string) =>
  new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&');

/** A browser's cookies, kept across answers from any worker. */
class Cookies {
  private readonly jar = new Map<string, string>();
  keep(answer: Answer) {
    const set = answer.headers['set-cookie'] ?? [];
    for (const line of Array.isArray(set) ? set : [set]) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      this.jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    return answer;
  }
  header() {
    return { cookie: [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ') };
  }
}

let deps: AuthDependencies;
let auth: ServiceProcess | undefined;

beforeAll(async () => {
  deps = (await startAuthTestApp()).deps;
});
afterAll(async () => {
  await auth?.stop();
  await deps?.close();
});

describe('AUTH_WORKERS', () => {
  it('when set to 2, then sign-in, consent, code exchange and refresh each work on the other worker, and SIGTERM frees the port', async () => {
    const email = uniqueEmail('auth-workers');
    await createTestUser(deps, email, password);
    const client = await createTestClient(deps, { name: 'Two Workers' });
    auth = startNodeProcess([entry], {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: process.env.DATABASE_URL!,
      REDIS_URL: process.env.REDIS_URL!,
      // Its own prefix: the per-IP sign-in counters of this run's other files stay out of it.
      REDIS_KEY_PREFIX: isolatedRedisPrefix('auth-workers'),
      AUTH_PORT: '0',
      AUTH_METRICS_PORT: '0',
      AUTH_WORKERS: '2',
      // A rotated refresh token presented again is reuse at once (no retry grace): checked below.
      AUTH_REFRESH_REUSE_GRACE_SECONDS: '0',
    });
    const service = auth;
    const listening = () => lines(service).filter((line) => line.msg === 'auth listening');
    await waitForOutput(service, () => (listening().length === 2 ? true : undefined), 90_000);
    const urls = new Set(listening().map((line) => String(line.url)));
    expect(urls.size).toBe(1);
    const port = Number(new URL([...urls][0]).port);
    const workers = lines(service)
      .filter((line) => line.msg === 'auth worker started')
      .map((line) => Number(line.pid));
    expect(workers).toHaveLength(2);

    const served: number[] = [];
    /** The step's request on a new connection accepted by the other worker than the previous step's. */
    const step = async (
      method: string,
      path: string,
      headers: Record<string, string> = {},
      body?: string,
    ) => {
      const connection = await connectToWorker(port, workers, served.at(-1));
      served.push(connection.pid);
      return requestOver(connection, method, path, headers, body);
    };
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const cookies = new Cookies();

    const authorize = `/oauth2/authorize?response_type=code&client_id=${client.client_id}&state=w2`;
    const first = cookies.keep(await step('GET', authorize));
    expect(first.status).toBe(302);
    const signInPage = cookies.keep(await step('GET', String(first.headers.location), cookies.header()));
    expect(signInPage.status).toBe(200);
    const signedIn = cookies.keep(
      await step(
        'POST',
        '/login',
        { ...form, ...cookies.header() },
        new URLSearchParams({
          email,
          password,
          csrf_token: inputValue(signInPage.body, 'csrf_token')!,
          return_to: inputValue(signInPage.body, 'return_to')!,
        }).toString(),
      ),
    );
    expect(signedIn.status).toBe(303);
    const consent = cookies.keep(await step('GET', String(signedIn.headers.location), cookies.header()));
    expect(consent.status).toBe(200);
    const fields = new URLSearchParams({ decision: 'allow' });
    for (const name of ['csrf_token', 'client_id', 'response_type', 'scope', 'redirect_uri', 'state']) {
      const value = inputValue(consent.body, name);
      if (value !== undefined) fields.set(name, value);
    }
    const decision = await step(
      'POST',
      '/oauth2/authorize',
      { ...form, ...cookies.header() },
      fields.toString(),
    );
    expect(decision.status).toBe(302);
    const redirect = new URL(String(decision.headers.location));
    expect(redirect.searchParams.get('state')).toBe('w2');
    const code = redirect.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const basic = {
      authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
      ...form,
    };
    const grant = (params: Record<string, string>) =>
      step('POST', '/oauth2/token', basic, new URLSearchParams(params).toString());
    const exchanged = await grant({ grant_type: 'authorization_code', code });
    expect(exchanged.status).toBe(200);
    const tokens = JSON.parse(exchanged.body) as { access_token: string; refresh_token: string };
    expect(tokens.access_token).toEqual(expect.any(String));
    const refreshed = await grant({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refreshed.status).toBe(200);
    // The rotated-out refresh token, presented again on the other worker, is detected as reuse.
    const replayed = await grant({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(replayed.status).toBe(400);

    // Every step ran on the other worker than the step before: both served, alternately.
    expect(new Set(served)).toEqual(new Set(workers));
    served.slice(1).forEach((pid, i) => expect(pid).not.toBe(served[i]));

    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
    expect(workers.filter(alive)).toEqual([]);
    const freed = createServer();
    await new Promise<void>((resolve, reject) =>
      freed.once('error', reject).listen(port, '127.0.0.1', resolve),
    );
    await new Promise((resolve) => freed.close(resolve));
  });
});
