import { webhookUrlPolicyOf } from '@pfs/config';
import request from 'supertest';
import { buildApiApp } from '../../../src/app';
import { loadApiConfig } from '../../../src/config';
import {
  ApiTestApp,
  createTestUser,
  issueToken,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';

let api: ApiTestApp;
let strict: ApiTestApp;
let owner: TestUser;

const HOOK = 'https://127.0.0.1:9443/hooks/pfs';

beforeAll(async () => {
  api = await startApiTestApp({ WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_RELAY_INTERVAL_MS: '0' });
  strict = await startApiTestApp({ WEBHOOK_RELAY_INTERVAL_MS: '0' });
  owner = await createTestUser(api.deps);
}, 60_000);
afterAll(async () => {
  await api.close();
  await strict.close();
});

const create = (app: ApiTestApp, auth: string, body: object) =>
  request(app.app).post('/webhooks').set('Authorization', auth).send(body);

describe('POST/GET/PUT/DELETE /webhooks', () => {
  it('when a webhook is registered, then the secret is answered once and stored only encrypted', async () => {
    const created = await create(api, owner.auth, { url: HOOK, events: ['entry.created', 'tag.deleted'] });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.headers.location).toMatch(new RegExp(`/webhooks/${created.body.id}$`));
    expect(created.body).toMatchObject({
      url: HOOK,
      events: ['entry.created', 'tag.deleted'],
      enabled: true,
    });

    const fetched = await request(api.app)
      .get(`/webhooks/${created.body.id}`)
      .set('Authorization', owner.auth)
      .expect(200);
    expect(fetched.body.secret).toBeUndefined();
    expect(fetched.body.id).toBe(created.body.id);

    const [row] = await api.deps.dataSource.query(`SELECT secret_encrypted FROM webhooks WHERE id = $1`, [
      created.body.id,
    ]);
    expect(row.secret_encrypted).not.toContain(created.body.secret.slice(6));
    expect(api.deps.webhookCipher.decrypt(row.secret_encrypted)).toBe(created.body.secret);
  });

  it('when a webhook is replaced, listed and deleted, then each answer says so', async () => {
    const { body } = await create(api, owner.auth, { url: HOOK, events: ['account.updated'] });
    const replaced = await request(api.app)
      .put(`/webhooks/${body.id}`)
      .set('Authorization', owner.auth)
      .send({ url: `${HOOK}/v2`, events: ['account.created'], description: 'ledger sync', enabled: false })
      .expect(200);
    expect(replaced.body).toMatchObject({
      url: `${HOOK}/v2`,
      events: ['account.created'],
      description: 'ledger sync',
      enabled: false,
    });
    const listed = await request(api.app).get('/webhooks').set('Authorization', owner.auth).expect(200);
    expect(listed.body.map((hook: { id: string }) => hook.id)).toContain(body.id);
    await request(api.app).delete(`/webhooks/${body.id}`).set('Authorization', owner.auth).expect(204);
    await request(api.app).get(`/webhooks/${body.id}`).set('Authorization', owner.auth).expect(404);
  });

  it('when the body is wrong, then 400 names each field and its rule', async () => {
    const answer = await create(api, owner.auth, { events: ['entry.exploded', 'entry.created'] });
    expect(answer.status).toBe(400);
    const fields = answer.body.fields.map((field: { field: string }) => field.field);
    expect(fields).toEqual(expect.arrayContaining(['url', 'events.0']));
    const empty = await create(api, owner.auth, { url: HOOK, events: [] });
    expect(empty.body.fields).toEqual([{ field: 'events', error: 'must name at least one event' }]);
  });
});

describe('scopes: a webhook needs the read scope of its events areas', () => {
  it('when the token lacks an area, then creating is 403 naming the scope, and reading is refused', async () => {
    const accountsOnly = await issueToken(api.deps, owner.userId, 'accounts:r');
    const refused = await create(api, accountsOnly.auth, {
      url: HOOK,
      events: ['account.created', 'entry.updated'],
    });
    expect(refused.status).toBe(403);
    expect(refused.body.description).toContain('entries:r');
    expect(refused.headers['www-authenticate']).toContain('scope="entries:r"');
    const allowed = await create(api, accountsOnly.auth, { url: HOOK, events: ['account.deleted'] });
    expect(allowed.status).toBe(201);

    const { body: entryHook } = await create(api, owner.auth, { url: HOOK, events: ['export.generated'] });
    await request(api.app)
      .get(`/webhooks/${entryHook.id}`)
      .set('Authorization', accountsOnly.auth)
      .expect(403);
    const listed = await request(api.app)
      .get('/webhooks')
      .set('Authorization', accountsOnly.auth)
      .expect(200);
    const ids = listed.body.map((hook: { id: string }) => hook.id);
    expect(ids).toContain(allowed.body.id);
    expect(ids).not.toContain(entryHook.id);
  });
});

describe('isolation', () => {
  it('when another user or another application asks, then the webhook does not exist for them', async () => {
    const { body } = await create(api, owner.auth, { url: HOOK, events: ['entry.created'] });
    const stranger = await createTestUser(api.deps);
    const otherApp = await issueToken(api.deps, owner.userId, 'entries:rw', { client_id: 'another-client' });
    for (const auth of [stranger.auth, otherApp.auth]) {
      await request(api.app).get(`/webhooks/${body.id}`).set('Authorization', auth).expect(404);
      await request(api.app)
        .put(`/webhooks/${body.id}`)
        .set('Authorization', auth)
        .send({ url: HOOK, events: ['entry.created'] })
        .expect(404);
      await request(api.app).delete(`/webhooks/${body.id}`).set('Authorization', auth).expect(404);
      await request(api.app).get(`/webhooks/${body.id}/deliveries`).set('Authorization', auth).expect(404);
      const listed = await request(api.app).get('/webhooks').set('Authorization', auth).expect(200);
      expect(listed.body.map((hook: { id: string }) => hook.id)).not.toContain(body.id);
    }
    await request(api.app).get(`/webhooks/${body.id}`).set('Authorization', owner.auth).expect(200);
  });
});

describe('https only in production', () => {
  it('when the API runs in production, then an http URL is refused with 400 naming url; in development it is accepted', async () => {
    // Production refuses development secrets, so this environment sets them.
    const production = loadApiConfig({
      ...process.env,
      NODE_ENV: 'production',
      SYNC_TOKEN_SECRET: 'a-long-enough-sync-secret',
      EXPORT_LINK_SECRET: 'an-export-link-secret',
      WEBHOOK_SECRET_KEY: Buffer.alloc(32, 9).toString('base64url'),
      WEBHOOK_ALLOW_LOOPBACK: 'true',
    });
    const user = await createTestUser(api.deps);
    const inProduction = buildApiApp({ ...api.deps, webhookUrlPolicy: webhookUrlPolicyOf(production) });
    const refused = await request(inProduction)
      .post('/webhooks')
      .set('Authorization', user.auth)
      .send({ url: 'http://127.0.0.1:9443/hooks/pfs', events: ['entry.created'] })
      .expect(400);
    expect(refused.body.fields).toEqual([{ field: 'url', error: 'must be an https URL' }]);
    await request(inProduction)
      .post('/webhooks')
      .set('Authorization', user.auth)
      .send({ url: HOOK, events: ['entry.created'] })
      .expect(201);
    await create(api, user.auth, {
      url: 'http://127.0.0.1:9443/hooks/pfs',
      events: ['entry.created'],
    }).expect(201);
  });
});

describe('SSRF: where a webhook may point', () => {
  const refusedEverywhere = [
    'https://10.0.0.1/hook',
    'https://172.16.5.4/hook',
    'https://192.168.1.10/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.0.1/hook',
    'https://224.0.0.1/hook',
    'https://0.0.0.0/hook',
    'https://[::]/hook',
    'https://[fe80::1]/hook',
    'https://[fd00::1]/hook',
    'https://[::ffff:10.0.0.1]/hook',
    'https://[::ffff:169.254.169.254]/hook',
    'ftp://example.com/hook',
    'https://user:pass@127.0.0.1/hook',
    'not a url',
  ];
  const loopback = [
    'https://127.0.0.1/hook',
    'https://127.1.2.3/hook',
    'https://2130706433/hook',
    'https://0x7f.0.0.1/hook',
    'https://localhost/hook',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
  ];

  it.each([...refusedEverywhere, ...loopback])(
    'when loopback is not allowed (the default), then %s is refused with 400 naming url',
    async (url) => {
      const user = await createTestUser(strict.deps);
      const answer = await create(strict, user.auth, { url, events: ['entry.created'] });
      expect(answer.status).toBe(400);
      expect(answer.body.fields).toEqual([{ field: 'url', error: expect.any(String) }]);
      const [{ count }] = await strict.deps.dataSource.query(
        `SELECT count(*)::int AS count FROM webhooks WHERE user_id = $1`,
        [user.userId],
      );
      expect(count).toBe(0);
    },
  );

  it.each(refusedEverywhere)('when loopback is allowed, then %s is still refused', async (url) => {
    const answer = await create(api, owner.auth, { url, events: ['entry.created'] });
    expect(answer.status).toBe(400);
  });

  it('when a name resolves to loopback (localhost), then the answer says which address it resolved to', async () => {
    const answer = await create(strict, owner.auth, {
      url: 'https://localhost:8443/hook',
      events: ['tag.created'],
    });
    expect(answer.body.fields[0].error).toMatch(
      /resolves to (127\.0\.0\.1|::1), which is a loopback address/,
    );
  });

  it('when a replace points an existing webhook at a private address, then it is refused and unchanged', async () => {
    const { body } = await create(api, owner.auth, { url: HOOK, events: ['entry.created'] });
    await request(api.app)
      .put(`/webhooks/${body.id}`)
      .set('Authorization', owner.auth)
      .send({ url: 'https://192.168.0.1/', events: ['entry.created'] })
      .expect(400);
    const fetched = await request(api.app).get(`/webhooks/${body.id}`).set('Authorization', owner.auth);
    expect(fetched.body.url).toBe(HOOK);
  });
});
