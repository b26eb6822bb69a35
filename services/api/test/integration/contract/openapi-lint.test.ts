import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';
import { ApiTestApp, startApiTestApp } from '../../support/api-test-app';

interface Problem {
  rule: string;
  severity: string;
  message: string;
  where: string;
}

/** Lints a document with Redocly's engine and services/api/redocly.yaml (test/support/lint-openapi.mjs). */
function lint(document: unknown): Problem[] {
  const script = join(__dirname, '../../support/lint-openapi.mjs');
  const run = spawnSync(process.execPath, [script], { input: JSON.stringify(document), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`the linter failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Problem[];
}

/** Starting the app, and each lint (a process loading the linter): seconds when quiet, more on a busy machine. */
const LINT_TIMEOUT_MS = 120_000;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let api: ApiTestApp;
let served: Json;
beforeAll(async () => {
  api = await startApiTestApp({ AUTH_URL: 'https://auth.example.test' });
  served = (await request(api.app).get('/openapi.json').expect(200)).body;
}, LINT_TIMEOUT_MS);
afterAll(() => api.close());

describe('/openapi.json is lint-clean', () => {
  it(
    'when the served document is linted (Redocly recommended rules, no exceptions but those in redocly.yaml), then nothing is reported, warnings included',
    () => {
      expect(lint(served)).toEqual([]);
    },
    LINT_TIMEOUT_MS,
  );

  it(
    'when a declaration is broken, then the linter reports it (the check can fail)',
    () => {
      const broken = structuredClone(served);
      broken.paths['/tags/merge'].post.requestBody.content['application/json'].schema.properties.tags = {
        type: 'array',
      };
      broken.paths['/categories'].get.security = [{ undeclaredScheme: [] }];
      const rules = lint(broken).map((problem) => `${problem.rule} ${problem.severity}`);
      expect(rules).toEqual(expect.arrayContaining(['rule/array-items error', 'security-defined error']));
    },
    LINT_TIMEOUT_MS,
  );

  it('when the security scheme is read, then OAuth 2.0 declares both flows with the AUTH_URL endpoints and every scope', () => {
    const { flows } = served.components.securitySchemes.oauth2;
    expect(flows.authorizationCode).toMatchObject({
      authorizationUrl: 'https://auth.example.test/oauth2/authorize',
      tokenUrl: 'https://auth.example.test/oauth2/token',
      refreshUrl: 'https://auth.example.test/oauth2/token',
    });
    expect(flows.implicit.authorizationUrl).toBe('https://auth.example.test/oauth2/authorize');
    for (const flow of [flows.authorizationCode, flows.implicit]) {
      expect(flow.scopes).toMatchObject({
        'entries:rw': expect.stringMatching(/entries/),
        'locations:r': expect.any(String),
      });
      expect(Object.keys(flow.scopes)).toHaveLength(16);
    }
  });

  it('when a query parameter is required by the route, then the document says required: true', () => {
    const history = served.paths['/budgets/{id}/history'].get;
    expect(history.parameters.find((p: Json) => p.name === 'to')).toMatchObject({
      in: 'query',
      required: true,
    });
    expect(history.parameters.find((p: Json) => p.name === 'page').required).toBe(false);
    expect(history.responses['200'].content['application/json'].schema.type).toBe('array');
    expect(history.responses['204']).toBeUndefined();
  });
});
