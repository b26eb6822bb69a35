import { accessTokenKey, hashToken, userProfileGenerationKey, userProfileKey } from '@pfs/contracts';
import request from 'supertest';
import { ApiTestApp, createTestUser, issueToken, startApiTestApp } from '../support/api-test-app';

/**
 * GET /me is served from a Redis copy read in the authentication round trip. These tests pin the risks
 * that copy brings: stale reads after a write (also across API instances), one user's copy reaching
 * another token, and a cached copy outliving the token that may read it.
 */
let first: ApiTestApp;
let second: ApiTestApp;
beforeAll(async () => {
  // Two API processes of one deployment: same Postgres, same Redis and key prefix.
  first = await startApiTestApp();
  second = await startApiTestApp();
});
afterAll(async () => {
  await first.close();
  await second.close();
});

const getMe = (api: ApiTestApp, auth: string) => request(api.app).get('/me').set('Authorization', auth);

describe('GET /me from the profile cache', () => {
  it('when /me is read twice, then the second answer comes from the cache with the same bytes and validators', async () => {
    const user = await createTestUser(first.deps);
    const miss = await getMe(first, user.auth).expect(200);
    expect(await first.deps.redis.exists(userProfileKey(user.userId))).toBe(1);
    const hit = await getMe(second, user.auth).expect(200);
    expect(hit.text).toBe(miss.text);
    for (const header of ['etag', 'last-modified', 'content-type', 'content-length', 'cache-control']) {
      expect(hit.headers[header]).toBe(miss.headers[header]);
    }
    expect(hit.headers['x-ratelimit-remaining']).toBeDefined();

    // Served without Postgres: a write that skips the invalidation rule is not seen (hence the rule) …
    await first.deps.dataSource.query(`UPDATE users SET first_name = 'Sneaky' WHERE id = $1`, [user.userId]);
    expect((await getMe(second, user.auth).expect(200)).body.first_name).toBe('Ada');
    // … and the named invalidation makes the next read fresh.
    await first.deps.profileCache.invalidate(user.userId);
    expect((await getMe(second, user.auth).expect(200)).body.first_name).toBe('Sneaky');
  });

  it('when the client sends the ETag of a cached profile, then 304 without a body', async () => {
    const user = await createTestUser(first.deps);
    const { headers } = await getMe(first, user.auth).expect(200);
    const notModified = await getMe(first, user.auth).set('If-None-Match', headers.etag).expect(304);
    expect(notModified.text).toBe('');
    expect(notModified.headers.etag).toBe(headers.etag);
  });

  it('when PUT /me changes the profile on one instance, then GET /me on either instance never serves the old body', async () => {
    const user = await createTestUser(first.deps);
    let current = (await getMe(first, user.auth).expect(200)).body;
    for (let round = 0; round < 6; round += 1) {
      const [writer, reader] = round % 2 ? [second, first] : [first, second];
      // Both instances hold the profile in the shared cache before the write.
      await getMe(reader, user.auth).expect(200);
      await getMe(writer, user.auth).expect(200);
      const put = await request(writer.app)
        .put('/me')
        .set('Authorization', user.auth)
        .send({ ...current, first_name: `Name ${round}`, start_day: round + 1 })
        .expect(200);
      for (const api of [reader, writer]) {
        const after = await getMe(api, user.auth).expect(200);
        expect(after.body).toEqual(put.body);
        expect(after.headers.etag).not.toBe(undefined);
      }
      current = put.body;
    }
  });

  it('when reads race with writes, then every read that starts after a PUT answered shows that PUT or a later one', async () => {
    const user = await createTestUser(first.deps);
    let current = (await getMe(first, user.auth).expect(200)).body;
    let stop = false;
    // Readers on both instances keep missing and filling the cache while the writes happen.
    const hammer = async (api: ApiTestApp) => {
      while (!stop) await getMe(api, user.auth).expect(200);
    };
    const readers = [hammer(first), hammer(second), hammer(first), hammer(second)];
    try {
      for (let round = 1; round <= 8; round += 1) {
        const put = await request(round % 2 ? first.app : second.app)
          .put('/me')
          .set('Authorization', user.auth)
          .send({ ...current, start_day: round })
          .expect(200);
        current = put.body;
        const [a, b] = await Promise.all([getMe(first, user.auth), getMe(second, user.auth)]);
        expect(a.body.start_day).toBe(round);
        expect(b.body.start_day).toBe(round);
      }
    } finally {
      stop = true;
      await Promise.all(readers);
    }
  });

  it('when a reader read the old row before a write, then its late fill is refused and the write stays visible', async () => {
    const user = await createTestUser(first.deps);
    const before = await first.deps.users.findById(user.userId);
    // The generation a miss hands the reader, as the gate script reads it.
    const generation = (await first.deps.redis.get(userProfileGenerationKey(user.userId))) ?? '0';
    const stale = first.deps.resourceApi.respond.prepare(
      { id: user.userId, first_name: 'Old' },
      before!.modifiedAt,
    );
    // The write commits and invalidates between the reader's Postgres read and its fill.
    await first.deps.profileCache.invalidate(user.userId);
    expect(await first.deps.profileCache.fill(user.userId, { generation }, stale)).toBe(false);
    expect(await first.deps.redis.exists(userProfileKey(user.userId))).toBe(0);
    expect((await getMe(second, user.auth).expect(200)).body.first_name).toBe('Ada');
  });
});

describe('GET /me cache isolation and revocation', () => {
  it('when two users have cached profiles, then each token reads only its own user', async () => {
    const ada = await createTestUser(first.deps);
    const bob = await createTestUser(first.deps);
    await first.deps.dataSource.query(`UPDATE users SET first_name = 'Bob' WHERE id = $1`, [bob.userId]);
    await first.deps.profileCache.invalidate(bob.userId);
    for (let read = 0; read < 3; read += 1) {
      const [adaMe, bobMe] = await Promise.all([getMe(first, ada.auth), getMe(second, bob.auth)]);
      expect(adaMe.body).toMatchObject({ id: ada.userId, first_name: 'Ada' });
      expect(bobMe.body).toMatchObject({ id: bob.userId, first_name: 'Bob' });
      expect(adaMe.headers.etag).not.toBe(bobMe.headers.etag);
    }
    // Bob's second token (another application) reads Bob's copy, never Ada's.
    const bobElsewhere = await issueToken(first.deps, bob.userId, 'user:r', { client_id: 'other-app' });
    expect((await getMe(second, bobElsewhere.auth).expect(200)).body.id).toBe(bob.userId);
  });

  it('when the token is revoked or expired while the profile is cached, then 401', async () => {
    const user = await createTestUser(first.deps);
    await getMe(first, user.auth).expect(200);
    await getMe(first, user.auth).expect(200);
    expect(await first.deps.redis.exists(userProfileKey(user.userId))).toBe(1);
    // Revocation deletes the introspection record (the auth service's contract).
    await first.deps.redis.del(accessTokenKey(hashToken(user.token)));
    const revoked = await getMe(second, user.auth).expect(401);
    expect(revoked.body.error_id).toBe('error.auth.unauthenticated');
    expect(revoked.body).not.toHaveProperty('email');

    const expired = await issueToken(first.deps, user.userId, 'user:r', {
      exp: Math.floor(Date.now() / 1000) - 1,
    });
    const answer = await getMe(first, expired.auth).expect(401);
    expect(answer.body).not.toHaveProperty('email');
  });

  it('when the token lacks user:r while the profile is cached, then 403', async () => {
    const user = await createTestUser(first.deps);
    await getMe(first, user.auth).expect(200);
    const narrow = await issueToken(first.deps, user.userId, 'entries:r');
    const answer = await getMe(first, narrow.auth).expect(403);
    expect(answer.body).not.toHaveProperty('email');
  });
});
