import { accessTokenKey, AccessTokenRecord, generateToken, hashToken } from '@pfs/contracts';
import { testLogger, uniqueEmail } from '@pfs/testing';
import type { Express } from 'express';
import request from 'supertest';
import { buildApiApp } from '../../src/app';
import { loadApiConfig } from '../../src/config';
import { ApiDependencies, createApiDependencies } from '../../src/dependencies';

export interface ApiTestApp {
  app: Express;
  deps: ApiDependencies;
  close(): Promise<void>;
}

/** The API in-process over this run's real Postgres and Redis; `env` overrides config variables. */
export async function startApiTestApp(env: Record<string, string> = {}): Promise<ApiTestApp> {
  const deps = await createApiDependencies(loadApiConfig({ ...process.env, ...env }), testLogger());
  return { app: buildApiApp(deps), deps, close: () => deps.close() };
}

/**
 * A Redis prefix of one app's own, for suites that lower RATE_LIMIT_LIMIT: the anonymous per-IP bucket is otherwise
 * shared with every suite of the run (all call from 127.0.0.1). Tokens must then come from that app's deps.
 */
export function isolatedRedisPrefix(name: string): string {
  return `${process.env.REDIS_KEY_PREFIX ?? 'pfs-test:'}${name}-${process.pid}:`;
}

export interface TestUser {
  userId: string;
  token: string;
  /** `Authorization` header value. */
  auth: string;
}

/**
 * A new user and an access token for it, written straight into Redis as the auth service would write
 * its introspection record (no auth service needed).
 */
export async function createTestUser(
  deps: ApiDependencies,
  scope = 'user:rw categories:rw tags:rw entries:rw accounts:rw budgets:rw',
  record: Partial<AccessTokenRecord> = {},
): Promise<TestUser> {
  const user = await deps.users.create({ email: uniqueEmail('api'), firstName: 'Ada' });
  return { userId: user.id, ...(await issueToken(deps, user.id, scope, record)) };
}

export async function issueToken(
  deps: ApiDependencies,
  userId: string,
  scope: string,
  record: Partial<AccessTokenRecord> = {},
): Promise<{ token: string; auth: string }> {
  const token = generateToken();
  const full: AccessTokenRecord = {
    sub: userId,
    scope,
    kind: 'access',
    client_id: 'test-client',
    exp: Math.floor(Date.now() / 1000) + 3600,
    ...record,
  };
  await deps.redis.set(accessTokenKey(hashToken(token)), JSON.stringify(full), 'EX', 3600);
  return { token, auth: `Bearer ${token}` };
}

/** Creates a category through the API and returns its id (from Location). */
export async function createCategory(
  app: Express,
  user: TestUser,
  body: Record<string, unknown>,
): Promise<string> {
  const answer = await request(app)
    .post('/categories')
    .set('Authorization', user.auth)
    .send(body)
    .expect(201);
  return String(answer.headers.location).split('/').pop()!;
}

export async function createTag(
  app: Express,
  user: TestUser,
  body: Record<string, unknown>,
): Promise<string> {
  const answer = await request(app).post('/tags').set('Authorization', user.auth).send(body).expect(201);
  return String(answer.headers.location).split('/').pop()!;
}
