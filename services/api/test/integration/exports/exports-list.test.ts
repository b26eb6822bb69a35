import type { ExportStatus, ExportType } from '@pfs/contracts';
import { ExportRepository } from '@pfs/resource-store';
import request from 'supertest';
import { ApiTestApp, createTestUser, startApiTestApp, TestUser } from '../../support/api-test-app';

let api: ApiTestApp;
let user: TestUser;
let exportsRepo: ExportRepository;
const made: Array<{ id: string; type: ExportType; status: ExportStatus }> = [];

const PATHS: Record<ExportStatus, ExportStatus[]> = {
  generating: [],
  generated: ['generated'],
  sending: ['generated', 'sending'],
  sent: ['generated', 'sending', 'sent'],
  error: ['error'],
};

/** Exports in every type × status, written through the repository (no worker runs here). */
beforeAll(async () => {
  api = await startApiTestApp();
  user = await createTestUser(api.deps, 'user:r entries:r budgets:r');
  exportsRepo = api.deps.repos.exports;
  for (const type of ['export', 'attachments', 'user_data'] as const) {
    for (const status of ['generating', 'generated', 'sending', 'sent', 'error'] as const) {
      const record = await api.deps.store.change({ userId: user.userId }, (change) =>
        exportsRepo.create(change, {
          type,
          resources: type === 'export' ? ['expenses'] : [],
          formats: type === 'export' ? ['csv'] : [],
          filters: null,
          from: null,
          to: null,
        }),
      );
      let previous: ExportStatus = 'generating';
      for (const next of PATHS[status]) {
        await api.deps.store.change({ userId: user.userId }, (change) =>
          exportsRepo.advance(
            change,
            record.id,
            [previous],
            next,
            next === 'error' ? { errorReason: 'Something the user can read.' } : {},
          ),
        );
        previous = next;
      }
      made.push({ id: record.id, type, status });
    }
  }
});
afterAll(() => api.close());

const list = (query: string, who: TestUser = user) =>
  request(api.app).get(`/exports${query}`).set('Authorization', who.auth);

describe('GET /exports', () => {
  it("when no filter is given, then all of the user's exports come, most recently changed first, with list headers", async () => {
    const answer = await list('').expect(200);
    expect(answer.body).toHaveLength(15);
    expect(answer.headers['x-total-count']).toBe('15');
    expect(answer.headers['content-type']).toContain('application/vnd.service+json; profile=');
    expect(answer.headers['service-modified']).toBeDefined();
    expect(answer.body.map((e: { id: string }) => e.id).sort()).toEqual(made.map((e) => e.id).sort());
    const failed = answer.body.find((e: { status: string }) => e.status === 'error');
    expect(failed.error).toBe('Something the user can read.');
  });

  it.each([
    ['status', 'sending'],
    ['status', 'sent'],
    ['status', 'error'],
    ['status', 'generating'],
    ['status', 'generated'],
    ['type', 'export'],
    ['type', 'attachments'],
    ['type', 'user_data'],
  ])('when filtered by %s=%s, then exactly those come', async (name, value) => {
    const answer = await list(`?${name}=${value}`).expect(200);
    const want = made
      .filter((e) => (name === 'status' ? e.status : e.type) === value)
      .map((e) => e.id)
      .sort();
    expect(answer.body.map((e: { id: string }) => e.id).sort()).toEqual(want);
    expect(answer.body.every((e: Record<string, string>) => e[name] === value)).toBe(true);
  });

  it('when status and type are combined, then both apply', async () => {
    const answer = await list('?status=sent&type=user_data').expect(200);
    expect(answer.body.map((e: { id: string }) => e.id)).toEqual(
      made.filter((e) => e.status === 'sent' && e.type === 'user_data').map((e) => e.id),
    );
  });

  it.each([
    ['?status=done', 'status', 'must be one of sending, sent, error, generating, generated'],
    ['?type=backup', 'type', 'must be one of export, attachments, user_data'],
    ['?per_page=9', 'per_page', 'must be at least 10'],
    ['?per_page=501', 'per_page', 'must be at most 500'],
    ['?page=-1', 'page', 'must be at least 0'],
    ['?status=sent&status=error', 'status', 'must be one of sending, sent, error, generating, generated'],
  ])('when the query is %s, then it is a 400 naming %s', async (query, field, error) => {
    const answer = await list(query).expect(400);
    expect(answer.body.fields).toEqual([{ field, error }]);
  });

  it('when paged by 10, then Link leads through every export exactly once', async () => {
    const first = await list('?per_page=10&type=export').expect(200);
    expect(first.body).toHaveLength(5);
    const page0 = await list('?per_page=10').expect(200);
    expect(page0.body).toHaveLength(10);
    expect(page0.headers.link).toContain('</exports?page=1&per_page=10');
    expect(page0.headers.link).toContain('rel="next"');
    const next = page0.headers.link.match(/<([^>]+)>; rel="next"/)![1];
    const page1 = await list(next.replace('/exports', '')).expect(200);
    const seen = [...page0.body, ...page1.body].map((e: { id: string }) => e.id);
    expect(new Set(seen).size).toBe(15);
  });

  it('when synced with since, then only exports changed after it come; an unchanged list answers 304', async () => {
    const first = await list('').expect(200);
    const since = first.headers['service-modified'];
    const quiet = await list(`?since=${encodeURIComponent(since)}`).expect(200);
    expect(quiet.body).toEqual([]);
    const target = made.find((e) => e.status === 'sent')!;
    await api.deps.store.change({ userId: user.userId }, (change) =>
      exportsRepo.setSeen(change, target.id, true),
    );
    const changed = await list(`?since=${encodeURIComponent(since)}`).expect(200);
    expect(changed.body).toEqual([expect.objectContaining({ id: target.id, seen: true })]);
    const again = await list('').expect(200);
    await list('').set('If-None-Match', again.headers.etag).expect(304);
    await list('?since=made-up').expect(400);
  });

  it('when one export is fetched with its ETag, then it is a 304; another user gets a 404', async () => {
    const id = made[0].id;
    const one = await request(api.app).get(`/exports/${id}`).set('Authorization', user.auth).expect(200);
    expect(one.body.id).toBe(id);
    await request(api.app)
      .get(`/exports/${id}`)
      .set('Authorization', user.auth)
      .set('If-None-Match', one.headers.etag)
      .expect(304);
    const other = await createTestUser(api.deps, 'entries:r budgets:r');
    await request(api.app).get(`/exports/${id}`).set('Authorization', other.auth).expect(404);
    await request(api.app)
      .get(`/exports/${id}`)
      .set('Authorization', other.auth)
      .set('If-None-Match', one.headers.etag)
      .expect(404);
    expect((await list('', other).expect(200)).body).toEqual([]);
    await request(api.app).get('/exports/not-a-number').set('Authorization', user.auth).expect(404);
  });
});
