import fc from 'fast-check';
import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTestUser,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';

type Op =
  | { kind: 'create'; name: string }
  | { kind: 'update'; pick: number; name: string }
  | { kind: 'delete'; pick: number }
  | { kind: 'syncStep' };

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      name: fc.string({ minLength: 1, maxLength: 8 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('update' as const),
      pick: fc.nat(),
      name: fc.string({ minLength: 1, maxLength: 8 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  { weight: 3, arbitrary: fc.constant({ kind: 'syncStep' as const }) },
);

/**
 * A client that syncs the way the docs say: follow Link from page 0, keep the Service-Modified, next
 * time send it as `since` with include_deleted=true. One `step` fetches one page, so writes interleave
 * with a traversal in progress.
 */
class SyncingClient {
  readonly objects = new Map<string, Record<string, unknown>>();
  readonly seenModified = new Map<string, string>();
  private since?: string;
  private next?: string;

  constructor(
    private readonly t: ApiTestApp,
    private readonly user: TestUser,
  ) {}

  async step(): Promise<boolean> {
    const url =
      this.next ??
      `/categories?include_deleted=true&per_page=10${this.since ? `&since=${encodeURIComponent(this.since)}` : ''}`;
    const answer = await request(this.t.app).get(url).set('Authorization', this.user.auth).expect(200);
    for (const item of answer.body as Array<Record<string, unknown>>) {
      const id = String(item.id);
      const previous = this.seenModified.get(id);
      // Never the same object twice without a newer modified.
      if (previous !== undefined && !(String(item.modified) > previous)) {
        throw new Error(`object ${id} sent again with modified ${String(item.modified)} after ${previous}`);
      }
      this.seenModified.set(id, String(item.modified));
      if (item.deleted) this.objects.delete(id);
      else this.objects.set(id, item);
    }
    this.next = /<([^>]+)>; rel="next"/.exec(answer.headers.link ?? '')?.[1];
    if (!this.next) this.since = answer.headers['service-modified'];
    return this.next === undefined;
  }

  async finish(): Promise<void> {
    while (!(await this.step()));
  }
}

describe('sync property', () => {
  let t: ApiTestApp;
  beforeAll(async () => {
    t = await startApiTestApp({ RATE_LIMIT_LIMIT: '1000000' });
  });
  afterAll(() => t.close());

  it('when creates, updates and deletes interleave with syncs, then a client following Link and since ends with exactly the server data', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArbitrary, { minLength: 1, maxLength: 45 }), async (ops) => {
        const user = await createTestUser(t.deps);
        const client = new SyncingClient(t, user);
        const live: string[] = [];
        for (const op of ops) {
          if (op.kind === 'create') {
            live.push(await createCategory(t.app, user, { name: op.name, type: 'expense' }));
          } else if (op.kind === 'update' && live.length) {
            const id = live[op.pick % live.length];
            const current = (await request(t.app).get(`/categories/${id}`).set('Authorization', user.auth))
              .body;
            await request(t.app)
              .put(`/categories/${id}`)
              .set('Authorization', user.auth)
              .send({ ...current, name: op.name })
              .expect(200);
          } else if (op.kind === 'delete' && live.length) {
            const [id] = live.splice(op.pick % live.length, 1);
            await request(t.app).delete(`/categories/${id}`).set('Authorization', user.auth).expect(204);
          } else if (op.kind === 'syncStep') {
            await client.step();
          }
        }
        await client.finish(); // complete the traversal in progress
        await client.finish(); // and one more since-sync
        const server: Array<{ id: string; name: string; modified: Date }> = await t.deps.dataSource.query(
          `SELECT id::text AS id, name FROM categories WHERE user_id = $1 AND NOT deleted`,
          [user.userId],
        );
        const expected = Object.fromEntries(server.map((row) => [row.id, row.name]));
        const actual = Object.fromEntries([...client.objects].map(([id, item]) => [id, item.name]));
        expect(actual).toEqual(expected);
      }),
      { numRuns: 20 },
    );
  }, 120_000);
});
