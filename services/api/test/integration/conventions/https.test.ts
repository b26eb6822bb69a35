import { startHttpServer } from '@pfs/http';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { buildApiApp } from '../../../src/app';
import { isHttpsRequired, loadApiConfig, tlsOptionsOf } from '../../../src/config';
import { ApiTestApp, createTestUser, startApiTestApp } from '../../support/api-test-app';

describe('HTTPS', () => {
  let t: ApiTestApp;
  beforeAll(async () => {
    t = await startApiTestApp({ REQUIRE_HTTPS: 'true', TRUST_PROXY: 'loopback' });
  });
  afterAll(() => t.close());

  it('when REQUIRE_HTTPS is on and a request comes over plain HTTP, then it is refused with a clear error', async () => {
    const user = await createTestUser(t.deps, 'user:r');
    const answer = await request(t.app).get('/me').set('Authorization', user.auth).expect(403);
    expect(answer.body).toMatchObject({
      error_id: 'error.https_required',
      description: expect.stringContaining('HTTPS'),
    });
    expect(answer.headers['strict-transport-security']).toBeUndefined();
    await request(t.app).get('/health').expect(200);
  });

  it('when a trusted proxy says X-Forwarded-Proto https, then the request is served with HSTS', async () => {
    const user = await createTestUser(t.deps, 'user:r');
    const answer = await request(t.app)
      .get('/me')
      .set('Authorization', user.auth)
      .set('X-Forwarded-Proto', 'https')
      .expect(200);
    expect(answer.headers['strict-transport-security']).toMatch(/^max-age=\d+; includeSubDomains$/);
  });

  it('when the proxy is not trusted, then X-Forwarded-Proto is ignored', async () => {
    const untrusted = buildApiApp({ ...t.deps, config: { ...t.deps.config, TRUST_PROXY: 'false' } });
    await request(untrusted).get('/me').set('X-Forwarded-Proto', 'https').expect(403);
  });

  it('when REQUIRE_HTTPS is unset, then production requires it and development does not', () => {
    // Production refuses development secrets, so this environment sets them.
    const base = {
      ...process.env,
      REQUIRE_HTTPS: '',
      SYNC_TOKEN_SECRET: 'a-long-enough-sync-secret',
      EXPORT_LINK_SECRET: 'an-export-link-secret',
      WEBHOOK_SECRET_KEY: Buffer.alloc(32, 9).toString('base64url'),
    };
    expect(isHttpsRequired(loadApiConfig({ ...base, NODE_ENV: 'production' }))).toBe(true);
    expect(isHttpsRequired(loadApiConfig({ ...base, NODE_ENV: 'development' }))).toBe(false);
    expect(isHttpsRequired(loadApiConfig({ ...base, NODE_ENV: 'production', REQUIRE_HTTPS: 'false' }))).toBe(
      false,
    );
    expect(() => tlsOptionsOf(loadApiConfig({ ...base, TLS_CERT_FILE: '/x.pem' }))).toThrow('TLS_KEY_FILE');
  });

  it('when TLS files are configured, then the API serves HTTPS itself with HSTS', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pfs-tls-'));
    const certFile = join(dir, 'cert.pem');
    const keyFile = join(dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-keyout',
        keyFile,
        '-out',
        certFile,
      ],
      { stdio: 'ignore' },
    );
    const config = loadApiConfig({ ...process.env, TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile });
    const server = await startHttpServer(t.app, { port: 0, tls: tlsOptionsOf(config) });
    try {
      expect(server.url).toMatch(/^https:/);
      const user = await createTestUser(t.deps, 'user:r');
      const answer = await new Promise<{ status: number; hsts?: string }>((resolve, reject) => {
        const req = httpsRequest(
          `${server.url}/me`,
          { rejectUnauthorized: false, headers: { Authorization: user.auth } },
          (res) => {
            res.resume();
            res.on('end', () =>
              resolve({ status: res.statusCode!, hsts: res.headers['strict-transport-security'] as string }),
            );
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(answer.status).toBe(200);
      expect(answer.hsts).toContain('max-age=');
    } finally {
      await server.stop(100);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
