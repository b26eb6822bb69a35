import { testLogger } from '@pfs/testing';
import type { Express } from 'express';
import { buildApiApp } from '../../../api/src/app';
import { loadApiConfig } from '../../../api/src/config';
import { ApiDependencies, createApiDependencies } from '../../../api/src/dependencies';

/**
 * The real resource API of one test file, on the run's database and Redis: what the auth service's tokens
 * and revocations are for. Read `app` inside tests.
 */
export function useResourceApi(): { readonly app: Express } {
  let deps: ApiDependencies | undefined;
  let app: Express | undefined;
  beforeAll(async () => {
    deps = await createApiDependencies(loadApiConfig(process.env), testLogger());
    app = buildApiApp(deps);
  });
  afterAll(async () => {
    await deps?.close();
  });
  return {
    get app() {
      if (!app) throw new Error('the resource API is used before beforeAll started it');
      return app;
    },
  };
}
