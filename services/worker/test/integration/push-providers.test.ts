import { PushTokenRepository } from '@pfs/resource-store';
import { testLogger } from '@pfs/testing';
import jwt from 'jsonwebtoken';
import { generateKeyPairSync } from 'node:crypto';
import { createServer as createHttpServer, IncomingMessage, Server } from 'node:http';
import { createServer as createHttp2Server, Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { ApnsProvider } from '../../src/push/apns.provider';
import { createPushProviders } from '../../src/push/create-push-providers';
import { FcmProvider } from '../../src/push/fcm.provider';
import type { PushMessage } from '../../src/push/push-provider';
import { sendDuePushes } from '../../src/push/send-due-pushes.use-case';
import { WnsProvider } from '../../src/push/wns.provider';
import { runExport } from '../../src/use-cases/run-export.use-case';
import { createTestPipeline, TestPipeline } from '../support/pipeline-deps';
import { LedgerSeed } from '../support/seed-ledger';

const apnsKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const fcmKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = (key: { export(options: object): string | Buffer }, type: 'pkcs8' | 'spki') =>
  String(key.export({ type, format: 'pem' }));

const message: PushMessage = {
  title: 'PFS',
  body: 'Your export <x> is ready & waiting',
  data: { notification_id: '7', export_id: '9' },
  collapseId: 'notification-7',
};
const device = (type: 'apple' | 'google' | 'apple_fcm' | 'windows', token: string) => ({
  id: '1',
  userId: '1',
  clientId: null,
  type,
  token,
});

interface Seen {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const readBody = (req: IncomingMessage | NodeJS.ReadableStream) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

/** An APNs peer over cleartext HTTP/2 (h2c): the token decides the answer, as Apple's would. */
async function startApns(): Promise<{ url: string; seen: Seen[]; server: Http2Server }> {
  const seen: Seen[] = [];
  const server = createHttp2Server();
  server.on('stream', async (stream, headers) => {
    const body = await readBody(stream);
    const path = String(headers[':path']);
    seen.push({ path, headers: headers as Seen['headers'], body });
    const token = decodeURIComponent(path.split('/').pop()!);
    const answer = (status: number, reason?: string, extra: Record<string, string> = {}) => {
      stream.respond({ ':status': status, 'content-type': 'application/json', ...extra });
      stream.end(reason ? JSON.stringify({ reason }) : '');
    };
    try {
      jwt.verify(String(headers.authorization).replace(/^bearer /, ''), pem(apnsKeys.publicKey, 'spki'), {
        algorithms: ['ES256'],
        issuer: 'TEAM123',
      });
    } catch {
      return answer(403, 'InvalidProviderToken');
    }
    if (token === 'dead') return answer(410, 'Unregistered');
    if (token === 'busy') return answer(429, 'TooManyRequests', { 'retry-after': '120' });
    if (token === 'bad-topic') return answer(400, 'DeviceTokenNotForTopic');
    if (token === 'malformed') return answer(400, 'BadCollapseId');
    answer(200);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

/** A token endpoint plus a send endpoint (FCM, WNS), over plain HTTP on loopback. */
async function startHttpPeer(
  handle: (
    path: string,
    headers: IncomingMessage['headers'],
    body: string,
  ) => { status: number; body?: unknown },
): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createHttpServer(async (req, res) => {
    const body = await readBody(req);
    seen.push({ path: req.url!, headers: req.headers, body });
    const answer = handle(req.url!, req.headers, body);
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

let apns: Awaited<ReturnType<typeof startApns>>;
let fcm: Awaited<ReturnType<typeof startHttpPeer>>;
let wns: Awaited<ReturnType<typeof startHttpPeer>>;

beforeAll(async () => {
  apns = await startApns();
  fcm = await startHttpPeer((path, headers, body) => {
    if (path === '/token') {
      const form = new URLSearchParams(body);
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return { status: 400 };
      const claims = jwt.verify(form.get('assertion')!, pem(fcmKeys.publicKey, 'spki'), {
        algorithms: ['RS256'],
        issuer: 'push@project.iam.example',
      }) as { scope: string };
      if (claims.scope !== 'https://www.googleapis.com/auth/firebase.messaging') return { status: 400 };
      return { status: 200, body: { access_token: 'fcm-access', expires_in: 3600 } };
    }
    if (headers.authorization !== 'Bearer fcm-access') return { status: 401 };
    const token = (JSON.parse(body) as { message: { token: string } }).message.token;
    if (token === 'dead')
      return {
        status: 404,
        body: { error: { status: 'NOT_FOUND', details: [{ errorCode: 'UNREGISTERED' }] } },
      };
    if (token === 'down') return { status: 503, body: { error: { status: 'UNAVAILABLE' } } };
    return { status: 200, body: { name: 'projects/p1/messages/1' } };
  });
  wns = await startHttpPeer((path, headers, body) => {
    if (path === '/token') {
      const form = new URLSearchParams(body);
      const ok = form.get('client_id') === 'wns-client' && form.get('client_secret') === 'wns-secret';
      return ok ? { status: 200, body: { access_token: 'wns-access', expires_in: 86400 } } : { status: 400 };
    }
    if (headers.authorization !== 'Bearer wns-access') return { status: 401 };
    return path.endsWith('/gone') ? { status: 410 } : { status: 200 };
  });
});
afterAll(async () => {
  for (const server of [apns.server, fcm.server, wns.server]) {
    await new Promise((resolve) => server.close(resolve));
  }
});

const apnsProvider = () =>
  new ApnsProvider({
    url: apns.url,
    privateKey: pem(apnsKeys.privateKey, 'pkcs8'),
    keyId: 'KEY123',
    teamId: 'TEAM123',
    topic: 'org.pfs.app',
  });
const fcmProvider = () =>
  new FcmProvider({
    url: fcm.url,
    serviceAccount: {
      project_id: 'p1',
      client_email: 'push@project.iam.example',
      private_key: pem(fcmKeys.privateKey, 'pkcs8'),
      token_uri: `${fcm.url}/token`,
    },
  });
const wnsProvider = () =>
  new WnsProvider({
    clientId: 'wns-client',
    clientSecret: 'wns-secret',
    tokenUrl: `${wns.url}/token`,
    channelHosts: ['127.0.0.1'],
  });

describe('APNs provider', () => {
  it('when a push is sent, then it goes over HTTP/2 to /3/device/<token> with a signed provider token, the topic and the alert', async () => {
    const provider = apnsProvider();
    try {
      expect(await provider.send(device('apple', 'a1b2'), message)).toEqual({ kind: 'sent' });
      expect(await provider.send(device('apple', 'c3d4'), message)).toEqual({ kind: 'sent' });
      const [first, second] = apns.seen.slice(-2);
      expect(first.path).toBe('/3/device/a1b2');
      expect(first.headers).toMatchObject({
        'apns-topic': 'org.pfs.app',
        'apns-push-type': 'alert',
        'apns-collapse-id': 'notification-7',
      });
      const token = String(first.headers.authorization).replace(/^bearer /, '');
      expect(jwt.decode(token, { complete: true })).toMatchObject({
        header: { alg: 'ES256', kid: 'KEY123' },
        payload: { iss: 'TEAM123' },
      });
      // The provider token is reused, not signed per push.
      expect(second.headers.authorization).toBe(first.headers.authorization);
      expect(JSON.parse(first.body)).toEqual({
        aps: { alert: { title: 'PFS', body: 'Your export <x> is ready & waiting' }, sound: 'default' },
        notification_id: '7',
        export_id: '9',
      });
    } finally {
      await provider.close();
    }
  });

  it('when APNs refuses, then the outcome says whether the token is dead, to retry later, or failed for good', async () => {
    const provider = apnsProvider();
    try {
      expect(await provider.send(device('apple', 'dead'), message)).toEqual({
        kind: 'invalid-token',
        reason: 'APNs 410 Unregistered',
      });
      expect(await provider.send(device('apple', 'bad-topic'), message)).toMatchObject({
        kind: 'invalid-token',
      });
      expect(await provider.send(device('apple', 'busy'), message)).toEqual({
        kind: 'retry',
        reason: 'APNs 429 TooManyRequests',
        retryAfterSeconds: 120,
      });
      expect(await provider.send(device('apple', 'malformed'), message)).toEqual({
        kind: 'failed',
        reason: 'APNs 400 BadCollapseId',
      });
    } finally {
      await provider.close();
    }
    const wrongKey = new ApnsProvider({
      url: apns.url,
      privateKey: pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, 'pkcs8'),
      keyId: 'KEY123',
      teamId: 'TEAM123',
      topic: 'org.pfs.app',
    });
    try {
      expect(await wrongKey.send(device('apple', 'a1b2'), message)).toMatchObject({ kind: 'retry' });
    } finally {
      await wrongKey.close();
    }
  });

  it('when APNs cannot be reached, then the push is to be retried', async () => {
    const provider = new ApnsProvider({
      url: 'http://127.0.0.1:1',
      privateKey: pem(apnsKeys.privateKey, 'pkcs8'),
      keyId: 'KEY123',
      teamId: 'TEAM123',
      topic: 'org.pfs.app',
    });
    try {
      expect(await provider.send(device('apple', 'a1b2'), message)).toMatchObject({ kind: 'retry' });
    } finally {
      await provider.close();
    }
  });
});

describe('FCM provider', () => {
  it('when pushes are sent, then one access token (service-account JWT grant) serves them all, and each message carries token, notification and data', async () => {
    const provider = fcmProvider();
    const before = fcm.seen.length;
    expect(await provider.send(device('google', 'android-1'), message)).toEqual({ kind: 'sent' });
    expect(await provider.send(device('apple_fcm', 'ios-1'), message)).toEqual({ kind: 'sent' });
    const seen = fcm.seen.slice(before);
    expect(seen.map((request) => request.path)).toEqual([
      '/token',
      '/v1/projects/p1/messages:send',
      '/v1/projects/p1/messages:send',
    ]);
    expect(JSON.parse(seen[1].body).message).toMatchObject({
      token: 'android-1',
      notification: { title: 'PFS', body: 'Your export <x> is ready & waiting' },
      data: { notification_id: '7', export_id: '9' },
    });
  });

  it('when FCM says UNREGISTERED or is down, then the token is dead or the push is retried', async () => {
    const provider = fcmProvider();
    expect(await provider.send(device('google', 'dead'), message)).toEqual({
      kind: 'invalid-token',
      reason: 'FCM 404 UNREGISTERED',
    });
    expect(await provider.send(device('google', 'down'), message)).toMatchObject({ kind: 'retry' });
  });
});

describe('WNS provider', () => {
  it('when a toast is sent, then it goes to the channel URI with the OAuth token, XML-escaped', async () => {
    const provider = wnsProvider();
    const before = wns.seen.length;
    expect(await provider.send(device('windows', `${wns.url}/channel/abc`), message)).toEqual({
      kind: 'sent',
    });
    const [token, toast] = wns.seen.slice(before);
    expect(new URLSearchParams(token.body).get('scope')).toBe('notify.windows.com');
    expect(toast.path).toBe('/channel/abc');
    expect(toast.headers['x-wns-type']).toBe('wns/toast');
    expect(toast.body).toContain('<text>Your export &lt;x&gt; is ready &amp; waiting</text>');
    expect(await provider.send(device('windows', `${wns.url}/channel/gone`), message)).toMatchObject({
      kind: 'invalid-token',
    });
  });

  it('when a channel URI points at a host WNS does not use, then nothing is requested and the token is refused', async () => {
    const provider = wnsProvider();
    const before = wns.seen.length;
    for (const channel of [
      'https://internal.example/admin',
      'not a url',
      'http://127.0.0.1.evil.example/x',
    ]) {
      expect(await provider.send(device('windows', channel), message)).toMatchObject({
        kind: 'invalid-token',
      });
    }
    expect(wns.seen.length).toBe(before);
  });
});

describe('the push outbox', () => {
  let pipeline: TestPipeline;
  beforeAll(async () => {
    pipeline = await createTestPipeline();
  });
  afterAll(() => pipeline.close());

  it('when an export is delivered, then each device gets its push through its provider, and each row says how it ended', async () => {
    const seed = await LedgerSeed.forNewUser(pipeline.dataSource);
    await seed.entry({ account: await seed.account('Cash'), amount: '-1', date: '2026-03-01' });
    const tokens = new PushTokenRepository(pipeline.dataSource);
    const user = pipeline.deps.repos.store.read(seed.userId);
    await tokens.register(user, undefined, 'apple', 'a1b2');
    await tokens.register(user, undefined, 'apple', 'dead');
    await tokens.register(user, undefined, 'google', 'down');
    await tokens.register(user, undefined, 'windows', `${wns.url}/channel/ok`);
    const providers = { apple: apnsProvider(), google: fcmProvider() };
    const send = (maxAttempts = 3) =>
      sendDuePushes({ pushTokens: tokens, providers, logger: testLogger(), maxAttempts });
    pipeline.deps.sendPushes = () => send();
    try {
      const created = await pipeline.deps.repos.store.change(seed.userId, (change) =>
        pipeline.deps.repos.exports.create(change, {
          type: 'export',
          resources: ['expenses'],
          formats: ['csv'],
          filters: null,
          from: null,
          to: null,
        }),
      );
      expect((await runExport(pipeline.deps, seed.userId, created.id))!.status).toBe('sent');
      const byToken = async () => {
        const devices = await pipeline.dataSource.query(
          `SELECT id::text AS id, token FROM push_tokens WHERE user_id = $1`,
          [seed.userId],
        );
        const name = new Map(devices.map((d: { id: string; token: string }) => [d.id, d.token]));
        return Object.fromEntries(
          (await tokens.listDeliveries(user)).map((d) => [
            name.get(d.pushTokenId),
            { status: d.status, attempts: d.attempts, lastError: d.lastError },
          ]),
        );
      };
      expect(await byToken()).toEqual({
        a1b2: { status: 'sent', attempts: 1, lastError: null },
        dead: { status: 'failed', attempts: 1, lastError: 'APNs 410 Unregistered' },
        down: { status: 'pending', attempts: 1, lastError: 'FCM 503 UNAVAILABLE' },
        [`${wns.url}/channel/ok`]: {
          status: 'skipped',
          attempts: 1,
          lastError: 'no push provider is configured for windows devices',
        },
      });
      // The dead token gets no more pushes until the app registers it again.
      expect((await tokens.listForUser(user)).map((d) => d.token)).not.toContain('dead');
      await tokens.register(user, undefined, 'apple', 'dead');
      expect((await tokens.listForUser(user)).map((d) => d.token)).toContain('dead');
      // Not due yet: a run now leaves the pending push alone; once due, it is tried until it is given up.
      await send();
      expect((await byToken()).down.attempts).toBe(1);
      for (let attempt = 2; attempt <= 3; attempt += 1) {
        await pipeline.dataSource.query(
          `UPDATE push_deliveries SET next_attempt_at = now() WHERE user_id = $1 AND status = 'pending'`,
          [seed.userId],
        );
        await send();
      }
      expect((await byToken()).down).toEqual({
        status: 'failed',
        attempts: 3,
        lastError: 'FCM 503 UNAVAILABLE (gave up after 3 attempts)',
      });
    } finally {
      await providers.apple.close();
      delete pipeline.deps.sendPushes;
    }
  });
});

describe('push provider configuration', () => {
  it('when a provider is half configured or its key file is unreadable, then the worker refuses to start, naming what is missing', () => {
    const base = {
      APNS_URL: 'https://api.push.apple.com',
      FCM_URL: 'https://fcm.googleapis.com',
      WNS_TOKEN_URL: 'https://login.live.com/accesstoken.srf',
      WNS_CHANNEL_HOSTS: ['notify.windows.com'],
    };
    expect(createPushProviders(base)).toEqual({});
    expect(() =>
      createPushProviders({ ...base, APNS_KEY_FILE: '/nonexistent.p8', APNS_KEY_ID: 'K' }),
    ).toThrow('APNs (APNS_KEY_FILE) is configured, but APNS_TEAM_ID, APNS_TOPIC is not set');
    expect(() =>
      createPushProviders({
        ...base,
        APNS_KEY_FILE: '/nonexistent.p8',
        APNS_KEY_ID: 'K',
        APNS_TEAM_ID: 'T',
        APNS_TOPIC: 'org.pfs.app',
      }),
    ).toThrow('APNS_KEY_FILE: cannot read /nonexistent.p8 (ENOENT)');
    expect(() => createPushProviders({ ...base, WNS_CLIENT_ID: 'id' })).toThrow(
      'WNS is configured, but WNS_CLIENT_SECRET is not set',
    );
  });
});
