import request, { Response } from 'supertest';
import { ApiTestApp, issueToken } from '../../support/api-test-app';
import {
  ContractChecker,
  ObservedResponse,
  OpenApiDocument,
  operationsOf,
  WalkedOperation,
} from '../../support/openapi-contract';
import { buildOpenApi } from '@pfs/resource-api';
import { apiModules } from '../../../src/modules';
import { publishedSchemas } from '../../../src/modules/published';
import { startImagesApp } from '../images/images-harness';
import {
  ContractFixture,
  isWebhookOperation,
  PlannedRequest,
  WEBHOOK_FIXTURE_SCOPES,
} from './contract-fixture';

/** Keeps every body as bytes, so JSON, pictures and PDFs are checked alike. */
function rawBody(res: Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

function observe(answer: Response): ObservedResponse {
  const bytes = answer.body as Buffer;
  const isJson = /[/+]json\b/.test(String(answer.headers['content-type'] ?? ''));
  const text = bytes.length && isJson ? bytes.toString('utf8') : '';
  return {
    status: answer.status,
    headers: answer.headers,
    text: bytes.length ? bytes.toString('latin1') : '',
    body: isJson ? (text ? JSON.parse(text) : undefined) : bytes.length ? bytes : undefined,
  };
}

/** The operation as the served document declares it (the one the checks read). */
function servedOperation(declared: WalkedOperation): WalkedOperation {
  return { ...declared, operation: doc.paths[declared.path][declared.method] };
}

async function send(
  api: ApiTestApp,
  walked: WalkedOperation,
  planned: PlannedRequest,
  given: string,
  headers: Record<string, string> = {},
) {
  const auth = planned.rebind ? await planned.rebind(given) : given;
  const agent = request(api.app);
  let call = agent[walked.method](planned.path)
    .query(planned.query)
    .set({ ...headers, Authorization: auth })
    .buffer(true)
    .parse(rawBody);
  if (planned.contentType) call = call.set('Content-Type', planned.contentType);
  if (planned.multipart) {
    return call
      .field(planned.multipart.fields)
      .attach('file', planned.multipart.file.bytes, planned.multipart.file.name);
  }
  return planned.body === undefined ? call : call.send(planned.body as object);
}

/**
 * The operations, known when the tests are defined: the same generator over the same module schemas as
 * the served document (the first test checks the served one lists exactly these).
 */
const generated = buildOpenApi(publishedSchemas(apiModules), {
  baseUrl: 'http://127.0.0.1:3000',
  authUrl: 'http://127.0.0.1:3001',
}) as unknown as OpenApiDocument;
const cases = operationsOf(generated).map(
  (walked) => [`${walked.method.toUpperCase()} ${walked.path}`, walked] as const,
);

/** The GETs that declare 304: replayed with the ETag they answered, they must answer it as declared. */
const revalidated = cases.filter(
  ([, walked]) => walked.method === 'get' && walked.operation.responses['304'],
);

/** Each required query parameter of each operation: leaving it out must be refused, or it is not required. */
const requiredQuery = cases.flatMap(([name, walked]) =>
  (walked.operation.parameters ?? [])
    .filter((parameter) => parameter.in === 'query' && parameter.required)
    .map((parameter) => [name, parameter.name, walked] as const),
);

let api: ApiTestApp;
let doc: OpenApiDocument;
let checker: ContractChecker;
let fixture: ContractFixture;

beforeAll(async () => {
  api = await startImagesApp({ WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_RELAY_INTERVAL_MS: '0' });
  doc = (await request(api.app).get('/openapi.json').expect(200)).body;
  checker = new ContractChecker(doc);
  fixture = await ContractFixture.seed(api);
}, 120_000);
afterAll(() => api.close());

describe('every operation of /openapi.json, called for real', () => {
  it('when the served document is walked, then it lists the operations of every resource', () => {
    const ids = operationsOf(doc).map((walked) => walked.operation.operationId);
    expect(ids).toEqual(cases.map(([, walked]) => walked.operation.operationId));
    expect(ids).toEqual(expect.arrayContaining(['entries.create', 'budgets.history', 'currencies.list']));
  });

  it.each(cases)('%s answers with a declared status, headers and body', async (_name, declared) => {
    const walked = servedOperation(declared);
    const planned = await fixture.plan(walked);
    const observed = observe(await send(api, walked, planned, fixture.user.auth));
    expect({
      status: observed.status,
      problems: checker.problems(walked, observed),
      ...(observed.status >= 300 ? { body: observed.text } : {}),
    }).toEqual({ status: expect.any(Number), problems: [] });
    expect(observed.status).toBeLessThan(300);
  });

  it.each(cases)('%s needs exactly the scopes its security declares', async (_name, declared) => {
    const walked = servedOperation(declared);
    const declaredScopes = walked.operation.security?.find((requirement) => requirement.oauth2)?.oauth2;
    expect(declaredScopes).toBeDefined();
    // A webhook operation declares no fixed scope: it needs the read scope of its webhook's events' areas,
    // checked on the body or the stored webhook (the fixture's webhooks are about accounts: accounts:r).
    const byEvents = isWebhookOperation(walked);
    const scopes = byEvents ? WEBHOOK_FIXTURE_SCOPES : declaredScopes!;
    const exact = await issueToken(api.deps, fixture.user.userId, scopes.join(' '));
    const withExact = await send(api, walked, await fixture.plan(walked), exact.auth);
    expect({
      status: withExact.status,
      body: withExact.status >= 300 ? observe(withExact).text : '',
    }).toEqual({
      status: expect.any(Number),
      body: '',
    });
    const unscoped = await issueToken(api.deps, fixture.user.userId, '');
    const withNone = await send(api, walked, await fixture.plan(walked), unscoped.auth);
    // An operation declaring no scope is open to any valid token; any other refuses a token without them.
    // The webhook list is open to any token: it lists only the webhooks whose events the token may read.
    expect(withNone.status === 403).toBe(
      scopes.length > 0 && walked.operation.operationId !== 'webhooks.list',
    );
  });

  it.each(requiredQuery)(
    '%s without its required query parameter %s is a 400 naming it',
    async (_name, name, declared) => {
      const walked = servedOperation(declared);
      const planned = await fixture.plan(walked);
      delete planned.query[name];
      const observed = observe(await send(api, walked, planned, fixture.user.auth));
      expect(observed.status).toBe(400);
      expect(checker.problems(walked, observed)).toEqual([]);
      expect((observed.body as { fields?: Array<{ field: string }> }).fields).toEqual(
        expect.arrayContaining([expect.objectContaining({ field: name })]),
      );
    },
  );
});

describe('batch create and revalidation, as /openapi.json declares them', () => {
  it('when POST /entries gets an array of entries, then the declared object-or-list 201 is a list of them', async () => {
    const walked = servedOperation(cases.find(([, c]) => c.operation.operationId === 'entries.create')![1]);
    const planned = await fixture.plan(walked);
    const descs = ['Batch one', 'Batch two'];
    planned.body = descs.map((desc) => ({ ...(planned.body as object), desc }));
    expect(checker.requestProblems(walked, 'application/json', planned.body)).toEqual([]);
    const observed = observe(await send(api, walked, planned, fixture.user.auth));
    expect({ status: observed.status, problems: checker.problems(walked, observed) }).toEqual({
      status: 201,
      problems: [],
    });
    const created = observed.body as Array<{ id: string; desc: string }>;
    expect(created.map((entry) => entry.desc)).toEqual(descs);
    expect(String(observed.headers.location)).toMatch(new RegExp(`/entries/${created[0].id}$`));
  });

  it.each(revalidated)('%s with If-None-Match of its ETag is the declared 304', async (_name, declared) => {
    const walked = servedOperation(declared);
    const planned = await fixture.plan(walked);
    const first = observe(await send(api, walked, planned, fixture.user.auth));
    expect(first.status).toBe(200);
    const etag = String(first.headers.etag ?? '');
    expect(etag).toMatch(/^"[^"]+"$/);
    const replay = observe(await send(api, walked, planned, fixture.user.auth, { 'If-None-Match': etag }));
    expect({ status: replay.status, problems: checker.problems(walked, replay) }).toEqual({
      status: 304,
      problems: [],
    });
    expect(replay.headers.etag).toBe(etag);
    // A list's 304 repeats its list headers (docs/conventions.md): the same page, the same count.
    const declaredOn200 = Object.keys((walked.operation.responses['200'].headers ?? {}) as object);
    for (const name of ['Link', 'X-Total-Count'].filter((header) => declaredOn200.includes(header))) {
      const header = name.toLowerCase();
      expect({ [name]: replay.headers[header] }).toEqual({ [name]: first.headers[header] });
    }
  });
});
