import { createAuthDependencies, createClient, createUser, loadAuthConfig } from '@pfs/auth';
import type { AuthDependencies, CreatedClient } from '@pfs/auth';
import { dropDatabase, ensureDatabase } from '@pfs/resource-store';
import { testLogger, uniqueEmail } from '@pfs/testing';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CookieJar, eventually, Replica, startReplicas, stopStartedReplicas } from '../support/replica-set';

/**
 * Stateless replicas: three api, three auth and three worker processes side by side on one Postgres
 * database and one Redis prefix (their own, made for this file). Each step of a flow goes to another
 * process, so anything a process kept in memory would show.
 */
jest.setTimeout(240_000);

const MATERIALIZER_LOCK_KEY = 7_246_310_001;
const RATE_LIMIT = 12;
const password = 'correct horse battery';
const databaseUrl = `${process.env.DATABASE_URL}_replicas`;
const prefix = `${process.env.REDIS_KEY_PREFIX}replicas-${randomBytes(3).toString('hex')}:`;

let storageDir: string;
let deps: AuthDependencies;
let client: CreatedClient;
let auth: Replica[] = [];
let api: Replica[] = [];
let worker: Replica[] = [];

beforeAll(async () => {
  storageDir = await mkdtemp(join(tmpdir(), 'pfs-replicas-'));
  await ensureDatabase(databaseUrl);
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'debug',
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL!,
    REDIS_KEY_PREFIX: prefix,
    STORAGE_DRIVER: 'fs',
    STORAGE_DIR: storageDir,
    EXPORT_LINK_SECRET: 'replicas-test-export-link-secret',
    RATE_LIMIT_LIMIT: String(RATE_LIMIT),
    // One day: the window's bucket does not turn during the test (it turns at 00:00 UTC).
    RATE_LIMIT_WINDOW_SECONDS: '86400',
    REPEAT_MATERIALIZE_INTERVAL_SECONDS: '1',
  };
  // In-process auth dependencies migrate the new database before the processes start, and make the client.
  deps = await createAuthDependencies(loadAuthConfig({ ...process.env, ...env }), testLogger());
  client = await createClient(deps, {
    name: 'Replica Checker',
    redirectUri: 'https://client.example.test/callback',
    scope: 'user:rw accounts:rw categories:rw entries:rw budgets:r',
    implicit: false,
  });
  [auth, api, worker] = await Promise.all([
    startReplicas('auth', 3, env),
    startReplicas('api', 3, env),
    startReplicas('worker', 3, env),
  ]);
});

afterAll(async () => {
  await stopStartedReplicas();
  await deps?.close();
  await dropDatabase(databaseUrl).catch(() => undefined);
  await rm(storageDir, { recursive: true, force: true });
});

const inputValue = (html: string, name: string) =>
  new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&');

/** Sign-in, consent and the code exchange, each request on the next auth process; returns the tokens. */
async function tokensThroughEveryAuthProcess(email: string) {
  const at = (i: number, path: string) => `${auth[i % auth.length].url}${path}`;
  const jar = new CookieJar();
  const authorize = `/oauth2/authorize?response_type=code&client_id=${client.client_id}&state=s1`;
  const first = await jar.fetch(at(0, authorize));
  expect(first.status).toBe(302);
  const signInPage = await jar.fetch(at(1, first.headers.get('location')!));
  const signInHtml = await signInPage.text();
  const signedIn = await jar.fetch(at(2, '/login'), {
    method: 'POST',
    body: new URLSearchParams({
      email,
      password,
      csrf_token: inputValue(signInHtml, 'csrf_token')!,
      return_to: inputValue(signInHtml, 'return_to')!,
    }),
  });
  expect(signedIn.status).toBe(303);
  const consent = await jar.fetch(at(3, signedIn.headers.get('location')!));
  expect(consent.status).toBe(200);
  const consentHtml = await consent.text();
  const fields = new URLSearchParams({ decision: 'allow' });
  for (const name of ['csrf_token', 'client_id', 'response_type', 'scope', 'redirect_uri', 'state']) {
    const value = inputValue(consentHtml, name);
    if (value !== undefined) fields.set(name, value);
  }
  const decision = await jar.fetch(at(4, '/oauth2/authorize'), { method: 'POST', body: fields });
  expect(decision.status).toBe(302);
  const code = new URL(decision.headers.get('location')!).searchParams.get('code');
  expect(code).toBeTruthy();
  const basic = Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64');
  const token = await fetch(at(5, '/oauth2/token'), {
    method: 'POST',
    headers: { authorization: `Basic ${basic}` },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: code! }),
  });
  expect(token.status).toBe(200);
  return (await token.json()) as { access_token: string; refresh_token: string };
}

async function newUser() {
  const email = uniqueEmail('replica');
  const user = await createUser(deps, { email, password, firstName: 'Ada' });
  return { email, userId: String(user.user.id) };
}

const apiCall = (i: number, token: string, path: string, init: RequestInit = {}) =>
  fetch(`${api[i % api.length].url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });

describe('three processes of each service on the same stores', () => {
  it('when sign-in, consent, code exchange and refresh each reach another auth process, then the flow works and every api process accepts the token', async () => {
    const { email } = await newUser();
    const tokens = await tokensThroughEveryAuthProcess(email);
    for (let i = 0; i < api.length; i += 1) {
      const me = await apiCall(i, tokens.access_token, '/me');
      expect(me.status).toBe(200);
      expect(((await me.json()) as { email: string }).email).toBe(email);
    }
    const basic = Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64');
    const refreshed = await fetch(`${auth[1].url}/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}` },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }),
    });
    expect(refreshed.status).toBe(200);
    const { access_token } = (await refreshed.json()) as { access_token: string };
    expect((await apiCall(2, access_token, '/me')).status).toBe(200);
  });

  it('when requests of one user alternate between api processes, then the rate limit counts them all together', async () => {
    const { email } = await newUser();
    const { access_token } = await tokensThroughEveryAuthProcess(email);
    const remaining: number[] = [];
    for (let i = 0; i < RATE_LIMIT; i += 1) {
      const answer = await apiCall(i, access_token, '/me');
      expect(answer.status).toBe(200);
      remaining.push(Number(answer.headers.get('x-ratelimit-remaining')));
    }
    expect(remaining).toEqual(Array.from({ length: RATE_LIMIT }, (_, i) => RATE_LIMIT - 1 - i));
    for (let i = 0; i < api.length; i += 1) {
      const refused = await apiCall(i, access_token, '/me');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('when a repeating series falls due, then one api process creates its occurrences once, the others skip while it holds the lease', async () => {
    const { email, userId } = await newUser();
    const { access_token } = await tokensThroughEveryAuthProcess(email);
    const post = async (i: number, path: string, body: unknown) => {
      const answer = await apiCall(i, access_token, path, { method: 'POST', body: JSON.stringify(body) });
      expect(answer.status).toBe(201);
      return String(answer.headers.get('location')).split('/').pop()!;
    };
    const account = await post(0, '/accounts', { name: 'Cash', currency: { code: 'EUR' } });
    const category = await post(1, '/categories', { name: 'Rent', type: 'expense' });
    // A daily series far in the future: only its first occurrence exists.
    const future = { start: '2030-01-01', frequency: 'daily', interval: 1 };
    await post(2, '/entries', {
      amount: -10,
      currency: { code: 'EUR' },
      date: '2030-01-01',
      account,
      category,
      repeat: future,
    });
    const listed = async () => {
      const answer = await apiCall(0, access_token, '/entries?per_page=500&from=2000-01-01&to=2099-12-31');
      return ((await answer.json()) as unknown[]).length;
    };
    expect(await listed()).toBe(1);

    // The test holds the materializer's lease (another "process") while the series becomes due.
    const holder = deps.dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    await holder.query('SELECT pg_advisory_xact_lock($1)', [MATERIALIZER_LOCK_KEY]);
    const skipsBefore = api.map((replica) => skipsOf(replica));
    await deps.dataSource.query(
      `UPDATE repeats SET rule = jsonb_set(rule, '{start}', to_jsonb(to_char((now() AT TIME ZONE 'UTC')::date - 5, 'YYYY-MM-DD'))),
         next_date = (now() AT TIME ZONE 'UTC')::date - 4 WHERE user_id = $1`,
      [userId],
    );
    // Every process tries, finds the lease taken and skips.
    await eventually('a skipped pass in each api process', async () =>
      api.every((replica, i) => skipsOf(replica) > skipsBefore[i] + 1) ? true : undefined,
    );
    expect(await listed()).toBe(1);
    await holder.commitTransaction();
    await holder.release();

    // Polled in the database: polling the API would spend this user's small rate limit (RATE_LIMIT).
    const stored = async () =>
      Number(
        (await deps.dataSource.query('SELECT count(*) AS n FROM entries WHERE user_id = $1', [userId]))[0].n,
      );
    await eventually('the due occurrences', async () => ((await stored()) === 6 ? true : undefined));
    // Later passes of every process find nothing left to do.
    const passesAfter = api.map((replica) => passesOf(replica));
    await eventually('two more passes or skips in each api process', async () =>
      api.every((replica, i) => passesOf(replica) >= passesAfter[i] + 2) ? true : undefined,
    );
    expect(await stored()).toBe(6);
    expect(await listed()).toBe(6);
    const created = api.flatMap((replica) =>
      replica.lines().filter((line) => line.msg === 'repeating entries created'),
    );
    expect(created).toEqual([expect.objectContaining({ created: 5 })]);
  });

  it('when an export is requested on one api process, then exactly one of the three workers runs it', async () => {
    const { email } = await newUser();
    const { access_token } = await tokensThroughEveryAuthProcess(email);
    const answer = await apiCall(1, access_token, '/exports', {
      method: 'POST',
      body: JSON.stringify({ type: 'export', resources: ['expenses'], formats: ['csv'] }),
    });
    expect(answer.status).toBe(201);
    const exportId = String(answer.headers.get('location')).split('/').pop();
    const finishedBy = () =>
      worker.filter((replica) =>
        replica.lines().some((line) => line.exportId === exportId && line.msg === 'export job finished'),
      );
    await eventually('the export job', async () => (finishedBy().length ? true : undefined));
    // Polled in the database, not the API: this user's rate limit is small (RATE_LIMIT).
    await eventually('the export to end', async () => {
      const [row] = await deps.dataSource.query('SELECT status FROM exports WHERE id = $1', [exportId]);
      return ['sent', 'error'].includes(row?.status) ? true : undefined;
    });
    const { status } = (await (await apiCall(2, access_token, `/exports/${exportId}`)).json()) as {
      status: string;
    };
    expect(status).toBe('sent');
    expect(finishedBy()).toHaveLength(1);
  });

  it('when one Idempotency-Key reaches every api process, at once and then again, then one entry exists and every retry answers the first result', async () => {
    const { email } = await newUser();
    const { access_token } = await tokensThroughEveryAuthProcess(email);
    const idOf = async (answer: Response) => {
      expect(answer.status).toBe(201);
      return String(answer.headers.get('location')).split('/').pop()!;
    };
    const create = (i: number, path: string, body: unknown) =>
      apiCall(i, access_token, path, { method: 'POST', body: JSON.stringify(body) });
    const account = await idOf(await create(0, '/accounts', { name: 'Cash', currency: { code: 'EUR' } }));
    const category = await idOf(await create(1, '/categories', { name: 'Food', type: 'expense' }));
    const body = JSON.stringify({
      amount: -12.5,
      currency: { code: 'EUR' },
      date: '2026-11-24',
      account,
      category,
      desc: 'once',
    });
    const send = (i: number) =>
      apiCall(i, access_token, '/entries', {
        method: 'POST',
        body,
        headers: { 'idempotency-key': 'replica-key' },
      });
    // At once, one request on each process: one creates, the others wait for it or are told it runs (409).
    const racing = await Promise.all(api.map((_, i) => send(i)));
    expect(racing.every((answer) => [201, 409].includes(answer.status))).toBe(true);
    const first = racing.find((answer) => answer.status === 201)!;
    const id = await idOf(first);
    const firstBody = await first.json();
    // Then again on each process, one after another: the stored first result, byte for byte the same entry.
    for (let i = 0; i < api.length; i += 1) {
      const retry = await send(i);
      expect(await idOf(retry)).toBe(id);
      expect(await retry.json()).toEqual(firstBody);
    }
    const listed = await apiCall(2, access_token, '/entries?from=2026-11-01&to=2026-11-30');
    expect(((await listed.json()) as Array<{ id: string }>).map((entry) => entry.id)).toEqual([id]);
  });
});

describe('three worker processes and the push outbox', () => {
  it('when exports of a user with three devices are delivered, then each push is claimed and settled once', async () => {
    const { email, userId } = await newUser();
    const { access_token } = await tokensThroughEveryAuthProcess(email);
    for (let device = 0; device < 3; device += 1) {
      const token = randomBytes(32).toString('hex');
      const answer = await apiCall(device, access_token, '/me/push', {
        method: 'POST',
        body: JSON.stringify({ type: 'apple', token }),
      });
      expect(answer.status).toBe(204);
    }
    // Each delivered export records a push per device; the worker that delivers it sends them at once while
    // the recurring push job, on any of the three workers, claims due pushes too.
    for (let i = 0; i < 2; i += 1) {
      const answer = await apiCall(i, access_token, '/exports', {
        method: 'POST',
        body: JSON.stringify({ type: 'export', resources: ['expenses'], formats: ['csv'] }),
      });
      expect(answer.status).toBe(201);
    }
    const pushes = () =>
      deps.dataSource.query(
        `SELECT d.status, d.attempts FROM push_deliveries d WHERE d.user_id = $1 ORDER BY d.id`,
        [userId],
      ) as Promise<Array<{ status: string; attempts: number }>>;
    await eventually(
      'six settled pushes',
      async () => {
        const rows = await pushes();
        return rows.length === 6 && rows.every((row) => row.status !== 'pending') ? true : undefined;
      },
      60_000,
    );
    // No APNs credentials here: every push is skipped, and a push claimed by two workers would show two
    // attempts (each claim adds one).
    expect(await pushes()).toEqual(Array.from({ length: 6 }, () => ({ status: 'skipped', attempts: 1 })));
  });
});

const skipsOf = (replica: Replica) =>
  replica.lines().filter((line) => line.msg === 'repeat materializer pass skipped: another process runs one')
    .length;
const passesOf = (replica: Replica) =>
  replica.lines().filter((line) => String(line.msg).startsWith('repeat materializer pass')).length;
