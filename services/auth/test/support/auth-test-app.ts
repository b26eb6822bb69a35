import type { Logger } from '@pfs/logger';
import { testLogger } from '@pfs/testing';
import type { Express } from 'express';
import { randomBytes } from 'node:crypto';
import { buildAuthApp } from '../../src/app';
import { loadAuthConfig } from '../../src/config';
import { AuthDependencies, createAuthDependencies } from '../../src/dependencies';
import { createClient, CreatedClient } from '../../src/use-cases/create-client.use-case';
import { createUser, CreatedUser } from '../../src/use-cases/create-user.use-case';

export interface AuthTestApp {
  deps: AuthDependencies;
  app: Express;
}

/** The real auth app on the run's database and Redis prefix, with config overrides. */
export async function startAuthTestApp(
  env: Record<string, string> = {},
  logger: Logger = testLogger(),
): Promise<AuthTestApp> {
  const deps = await createAuthDependencies(loadAuthConfig({ ...process.env, ...env }), logger);
  return { deps, app: buildAuthApp(deps) };
}

/**
 * The app of one test file: started before its tests, closed after them. Read `deps` and `app` inside
 * tests (they exist from beforeAll on).
 */
export function useAuthTestApp(env: Record<string, string> = {}, logger?: Logger): AuthTestApp {
  let started: AuthTestApp | undefined;
  beforeAll(async () => {
    started = await startAuthTestApp(env, logger);
  });
  afterAll(async () => {
    await started?.deps.close();
  });
  const current = () => {
    if (!started) throw new Error('the auth test app is used before beforeAll started it');
    return started;
  };
  return {
    get deps() {
      return current().deps;
    },
    get app() {
      return current().app;
    },
  };
}

/**
 * A Redis key prefix of its own, for a test file whose counters must start at zero: every test request
 * comes from loopback, so per-IP counters are otherwise shared by all the files of a run.
 */
export function isolatedRedisPrefix(label: string): string {
  return `${process.env.REDIS_KEY_PREFIX ?? ''}${label}-${randomBytes(4).toString('hex')}:`;
}

export async function createTestUser(
  deps: AuthDependencies,
  email: string,
  password = 'correct horse battery',
  options: { enableOtp?: boolean } = {},
): Promise<CreatedUser> {
  return createUser(deps, { email, password, firstName: 'Ada', enableOtp: options.enableOtp });
}

export async function createTestClient(
  deps: AuthDependencies,
  options: { scope?: string; redirectUri?: string; name?: string; implicit?: boolean } = {},
): Promise<CreatedClient> {
  return createClient(deps, {
    name: options.name ?? 'Budget Buddy',
    redirectUri: options.redirectUri ?? 'https://client.example.test/callback',
    scope: options.scope ?? 'user:r entries:rw',
    implicit: options.implicit ?? false,
  });
}
