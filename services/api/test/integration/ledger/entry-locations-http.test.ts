import request from 'supertest';
import {
  ApiTestApp,
  createCategory,
  createTestUser,
  startApiTestApp,
  TestUser,
} from '../../support/api-test-app';
import { postAccount, postEntry } from './ledger-http';

const SCOPE = 'entries:rw accounts:rw categories:rw locations:r';
// Ljubljana, Bled (about 45 km away) and Vienna (about 280 km away).
const LJUBLJANA = { id: '101', venue_id: 'v-1', latitude: 46.0569, longitude: 14.5058 };
const BLED = { id: '102', latitude: 46.3683, longitude: 14.1146 };
const VIENNA = { latitude: 48.2082, longitude: 16.3738 };

let api: ApiTestApp;
let user: TestUser;
let account: string;
let food: string;
let fun: string;
beforeAll(async () => {
  api = await startApiTestApp();
});
afterAll(() => api.close());
beforeEach(async () => {
  user = await createTestUser(api.deps, SCOPE);
  account = await postAccount(api.app, user, { name: 'Cash', currency: { code: 'EUR' } });
  food = await createCategory(api.app, user, { name: 'Food', type: 'expense' });
  fun = await createCategory(api.app, user, { name: 'Fun', type: 'expense' });
});

const entry = (location: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}) =>
  postEntry(api.app, user, {
    amount: -5,
    currency: { code: 'EUR' },
    date: '2025-05-09',
    account,
    category: food,
    ...(location ? { location } : {}),
    ...extra,
  });
const get = (path: string, who: TestUser = user) => request(api.app).get(path).set('Authorization', who.auth);

describe('GET /entries/locations', () => {
  it('when entries carry locations, then each place is listed once with its live entry count, most used first', async () => {
    await entry(LJUBLJANA);
    await entry(LJUBLJANA, { category: fun });
    await entry({ ...LJUBLJANA, venue_id: undefined });
    await entry(BLED);
    await entry(VIENNA);
    await entry(undefined);
    const gone = await entry(BLED);
    await request(api.app).delete(`/entries/${gone}`).set('Authorization', user.auth).expect(204);
    const answer = await get('/entries/locations').expect(200);
    expect(answer.headers['x-total-count']).toBe('3');
    expect(answer.headers['service-modified']).toBeDefined();
    expect(answer.body.map((place: Record<string, unknown>) => [place.id, place.counts])).toEqual([
      ['101', { entries: 3 }],
      ['102', { entries: 1 }],
      ['48.2082,16.3738', { entries: 1 }],
    ]);
    expect(answer.body[0]).toMatchObject({ latitude: 46.0569, longitude: 14.5058 });
    // Entry filters narrow what is counted.
    const fromFun = await get(`/entries/locations?categories=${fun}`).expect(200);
    expect(fromFun.body.map((place: { id: string }) => place.id)).toEqual(['101']);
    expect(fromFun.body[0].counts).toEqual({ entries: 1 });
    expect((await get('/entries/locations/101').expect(200)).body).toMatchObject({
      id: '101',
      counts: { entries: 3 },
    });
    await get('/entries/locations/999').expect(404);
  });

  it('when a point is given, then places come nearest first with their distance, within the radius if one is set', async () => {
    await entry(LJUBLJANA);
    await entry(BLED);
    await entry(VIENNA);
    const near = await get('/entries/locations?latitude=46.05&longitude=14.5').expect(200);
    const rows = near.body.map((place: { id: string; distance: number }) => [place.id, place.distance]);
    expect(rows.map((row: unknown[]) => row[0])).toEqual(['101', '102', '48.2082,16.3738']);
    expect(rows[0][1]).toBeLessThan(1_000);
    expect(rows[1][1]).toBeGreaterThan(40_000);
    expect(rows[1][1]).toBeLessThan(50_000);
    expect(rows[2][1]).toBeGreaterThan(250_000);
    const within = await get('/entries/locations?latitude=46.05&longitude=14.5&radius=50000').expect(200);
    expect(within.body.map((place: { id: string }) => place.id)).toEqual(['101', '102']);
    expect(within.headers['x-total-count']).toBe('2');
  });

  it('when synced with since, then only places whose entries changed come back, a place left empty as deleted', async () => {
    const first = await entry(LJUBLJANA);
    await entry(BLED);
    const since = (await get('/entries/locations').expect(200)).headers['service-modified'];
    expect((await get(`/entries/locations?since=${encodeURIComponent(since)}`).expect(200)).body).toEqual([]);
    await request(api.app).delete(`/entries/${first}`).set('Authorization', user.auth).expect(204);
    const changed = await get(`/entries/locations?since=${encodeURIComponent(since)}`).expect(200);
    expect(changed.body).toEqual([
      expect.objectContaining({ id: '101', counts: { entries: 0 }, deleted: true }),
    ]);
    expect(
      (await get('/entries/locations').expect(200)).body.map((place: { id: string }) => place.id),
    ).toEqual(['102']);
  });

  it('when pages are asked, then Link and X-Total-Count follow the list conventions', async () => {
    for (let i = 0; i < 12; i += 1) await entry({ id: String(200 + i), latitude: i, longitude: i });
    const page = await get('/entries/locations?per_page=10&page=1').expect(200);
    expect(page.body).toHaveLength(2);
    expect(page.headers['x-total-count']).toBe('12');
    expect(page.headers.link).toContain('rel="first"');
    expect(page.headers.link).toContain('rel="previous"');
  });

  it('when parameters break the rules, another user asks, or the scope is missing, then 400, nothing, or 403', async () => {
    await entry(LJUBLJANA);
    const bad = async (query: string) => (await get(`/entries/locations?${query}`).expect(400)).body.fields;
    expect(await bad('latitude=91&longitude=0')).toEqual([
      { field: 'latitude', error: 'must be a number from -90 to 90' },
    ]);
    expect(await bad('latitude=10')).toEqual([
      { field: 'longitude', error: 'is required with latitude and longitude (both or neither)' },
    ]);
    expect(await bad('radius=5')).toEqual([{ field: 'radius', error: 'needs latitude and longitude' }]);
    expect(await bad('latitude=1&longitude=x')).toEqual([
      { field: 'longitude', error: 'must be a number from -180 to 180' },
    ]);
    const stranger = await createTestUser(api.deps, SCOPE);
    expect((await get('/entries/locations', stranger).expect(200)).body).toEqual([]);
    await get('/entries/locations/101', stranger).expect(404);
    const noScope = await createTestUser(api.deps, 'entries:r');
    const refused = await get('/entries/locations', noScope).expect(403);
    expect(refused.body.description).toContain('locations:r');
  });
});
