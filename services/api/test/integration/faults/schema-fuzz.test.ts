import fc from 'fast-check';
import request from 'supertest';
import { ApiTestApp, startApiTestApp } from '../../support/api-test-app';
import {
  fillPath,
  isListRoute,
  isWriteRoute,
  JsonSchema,
  Operation,
  publishedOperations,
} from '../../support/openapi-operations';
import { ContractFixture } from '../contract/contract-fixture';

/** Fixed so a failure replays exactly; change it to explore, and report it with any 5xx found. */
const SEED = 20261124;
// A thousand requests take about 20 s on a quiet machine; a loaded CI machine needs more than Jest's 30 s default.
const FUZZ_TIMEOUT_MS = 180_000;
/** Requests per kind (lists, writes): bounded so the suite stays well under a minute on a loaded machine. */
const RUNS = 1000;

/** Text the handlers have tripped over before: NUL, bad escapes, lone surrogates, long and odd scripts. */
const urlText: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', '\udfff x', '%', '%zz', '%E0%A4%A', '\\u12', '١٢٣', '💸'),
  fc.constantFrom('0', '-1', '1e400', 'NaN', 'Infinity', '9'.repeat(400), 'true', 'null', '[]', '{}'),
  // Plausible values too, so some requests pass validation and reach the queries.
  fc.constantFrom('1', '2', '2026-01-01', '2026-12-31', 'EUR', 'expense', 'false', 'name', '-name'),
  fc.integer({ min: 500, max: 3_000 }).map((length) => 'x'.repeat(length)),
  fc.tuple(fc.string(), fc.string()).map(([before, after]) => `${before}\u0000${after}`),
);

/** As `urlText`, plus strings far larger than any field (a URL that long is 431 before the app). */
const oddText: fc.Arbitrary<string> = fc.oneof(
  urlText,
  fc.integer({ min: 10_000, max: 200_000 }).map((length) => 'x'.repeat(length)),
);

/** Placeholder for a number JSON.stringify cannot write (beyond double range): swapped in raw. */
const HUGE = '__huge_number__';

/** JSON values of every type, deep nesting, odd numbers: whatever a schema field may receive instead. */
const oddJson: fc.Arbitrary<unknown> = fc.oneof(
  oddText,
  fc.jsonValue({ maxDepth: 4 }),
  fc.constantFrom(HUGE, -0, 1e308, Number.MAX_SAFE_INTEGER * 1024, -1e-320, 0.1, true, null, [], {}),
  fc.integer({ min: 1, max: 40 }).map((depth) => nest(depth)),
  fc.array(oddText, { maxLength: 5 }),
  fc.dictionary(oddText, oddText, { maxKeys: 4 }),
);

function nest(depth: number): unknown {
  let value: unknown = 'deep';
  for (let level = 0; level < depth; level += 1) value = level % 2 ? [value] : { a: value };
  return value;
}

/** Percent-encodes `text`; a lone surrogate (which encodeURIComponent rejects) goes raw as bad UTF-8. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

/** A query string: declared parameters and random keys, values odd, some escapes left malformed on purpose. */
const queryFor = (declared: string[]) =>
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...(declared.length ? declared : ['page'])), urlText),
        urlText,
        fc.boolean(),
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((pairs) =>
      pairs
        .map(
          ([key, value, raw]) =>
            `${encode(key)}=${raw && /^[\x21-\x7e]*$/.test(value) ? value : encode(value)}`,
        )
        .join('&'),
    );

/** A JSON body text for `schema`: its fields given odd values, random extra keys, or not an object at all. */
const bodyFor = (schema: JsonSchema | undefined) => {
  const fields = Object.keys(schema?.properties ?? {});
  const objectBody = fc
    .tuple(
      fc.subarray(fields),
      fc.array(oddJson, { minLength: fields.length, maxLength: fields.length }),
      fc.dictionary(fc.string(), oddJson, { maxKeys: 2 }),
    )
    .map(([chosen, values, extra]) => ({
      ...extra,
      ...Object.fromEntries(chosen.map((field, index) => [field, values[index]])),
    }));
  return fc
    .oneof({ weight: 6, arbitrary: objectBody }, { weight: 1, arbitrary: oddJson })
    .map((body) => JSON.stringify(body).replaceAll(`"${HUGE}"`, '1e400'))
    .chain((text) =>
      // Now and then a body that is not JSON at all: cut short, or with a malformed escape.
      fc.constantFrom(text, text, text, text.slice(0, Math.max(1, text.length >> 1)), '{"a":"\\u12"}'),
    );
};

describe('schema-driven fuzz of every list and write route of /openapi.json (fixed seed)', () => {
  let api: ApiTestApp;
  let fixture: ContractFixture;
  let operations: Operation[];
  beforeAll(async () => {
    // The fixture seeds a webhook at a loopback receiver (as the contract walk does); no relay runs here.
    api = await startApiTestApp({ WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_RELAY_INTERVAL_MS: '0' });
    fixture = await ContractFixture.seed(api);
    operations = await publishedOperations(api.app);
  });
  afterAll(() => api.close());

  /** The path of `operation` with a real id of the fixture user, or now and then an odd one. */
  const pathFor = (operation: Operation) =>
    fc
      .oneof(
        { weight: 4, arbitrary: fc.constant(fixture.ids[operation.template.split('/{')[0].slice(1)] ?? 'x') },
        { weight: 1, arbitrary: urlText.map(encode) },
      )
      .map((id) => fillPath(operation.template, id));

  interface FuzzRequest {
    method: Operation['method'];
    url: string;
    body?: string;
  }

  async function expectNo5xx(generated: fc.Arbitrary<FuzzRequest>) {
    const failures: string[] = [];
    for (const fuzz of fc.sample(generated, { seed: SEED, numRuns: RUNS })) {
      let call = request(api.app)[fuzz.method](fuzz.url).set('Authorization', fixture.user.auth);
      if (fuzz.body !== undefined) call = call.set('Content-Type', 'application/json').send(fuzz.body);
      const answer = await call;
      if (answer.status >= 500) {
        const body = fuzz.body === undefined ? '' : ` body ${fuzz.body.slice(0, 300)}`;
        failures.push(
          `seed ${SEED}: ${answer.status} ${fuzz.method.toUpperCase()} ${fuzz.url.slice(0, 300)}${body}`,
        );
      }
    }
    expect(failures).toEqual([]);
  }

  it(
    'when list routes get odd, malformed and unknown query parameters, then nothing answers 5xx',
    async () => {
      const lists = operations.filter(isListRoute);
      expect(lists.length).toBeGreaterThan(10);
      await expectNo5xx(
        fc.constantFrom(...lists).chain((list) =>
          queryFor(list.query.map((parameter) => parameter.name)).map((query) => ({
            method: 'get' as const,
            url: `${list.template}?${query}`,
          })),
        ),
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'when write routes get bodies of wrong types, huge values, NUL and deep nesting, then nothing answers 5xx',
    async () => {
      const writes = operations.filter(isWriteRoute);
      expect(writes.length).toBeGreaterThan(10);
      await expectNo5xx(
        fc.constantFrom(...writes).chain((write) =>
          fc
            .tuple(pathFor(write), bodyFor(write.body), fc.option(queryFor([]), { freq: 4 }))
            .map(([path, body, query]) => ({
              method: write.method,
              url: query === null ? path : `${path}?${query}`,
              body,
            })),
        ),
      );
    },
    FUZZ_TIMEOUT_MS,
  );
});
