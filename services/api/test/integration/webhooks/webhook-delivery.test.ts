import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { createCategory } from '../../support/api-test-app';
import { DeliveryShown, Payload, webhookCalls } from './webhook-calls';
import { startWebhookHarness, until, WebhookHarness } from './webhook-harness';

let harness: WebhookHarness;
const { register, createAccount, createEntry, deliveriesOf } = webhookCalls(() => harness);

beforeAll(async () => {
  harness = await startWebhookHarness();
}, 60_000);
afterAll(() => harness.close());

const app = () => harness.api.app;

describe('webhook delivery over HTTPS, signed per Standard Webhooks', () => {
  it('when an entry is created, updated and deleted, then a verified signed POST carries each as GET presents it', async () => {
    const user = await harness.connect();
    const receiver = await harness.receiver();
    const hook = await register(user, receiver, ['entry.created', 'entry.updated', 'entry.deleted']);
    const account = await createAccount(user);
    const category = await createCategory(app(), user, { name: 'Food', type: 'expense' });
    const entry = await createEntry(user, account, category, 'Lunch');

    const [created] = await receiver.waitFor(1);
    // The package's own verifier: signature, timestamp tolerance and headers as the spec defines them.
    const verified = new Webhook(hook.secret).verify(created.body, created.headers) as Payload;
    expect(created.headers['webhook-id']).toMatch(/^msg_\d+$/);
    expect(created.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(created.headers['content-type']).toBe('application/json');
    const shown = await request(app())
      .get(`/entries/${entry.id}`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(verified).toEqual({
      type: 'entry.created',
      timestamp: expect.any(String),
      modified: shown.body.modified,
      data: shown.body,
    });
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(created.body, created.headers),
    ).toThrow();

    await request(app())
      .put(`/entries/${entry.id}`)
      .set('Authorization', user.auth)
      .send({ ...shown.body, desc: 'Dinner' })
      .expect(200);
    await request(app()).delete(`/entries/${entry.id}`).set('Authorization', user.auth).expect(204);
    const all = await receiver.waitFor(3);
    const bodies = all.map((got) => new Webhook(hook.secret).verify(got.body, got.headers) as Payload);
    // Deliveries run concurrently and are not ordered (docs/webhooks.md: use `modified`): each found by type.
    expect(bodies.map((body) => body.type).sort()).toEqual([
      'entry.created',
      'entry.deleted',
      'entry.updated',
    ]);
    const ofType = (type: string) => bodies.find((body) => body.type === type)!;
    expect(ofType('entry.updated').data.desc).toBe('Dinner');
    expect(ofType('entry.deleted').data).toMatchObject({ id: entry.id, deleted: true });

    const deliveries = await until('three settled deliveries', async () => {
      const list = await deliveriesOf(user, hook.id);
      return list.length === 3 && list.every((delivery) => delivery.status === 'succeeded') && list;
    });
    for (const delivery of deliveries) {
      expect(delivery.attempts).toEqual([
        { date: expect.any(String), status_code: 200, latency_ms: expect.any(Number) },
      ]);
    }
  });

  it('when the receiver fails 3 times, then the 4th attempt delivers the same message, and every attempt is logged', async () => {
    const user = await harness.connect();
    const receiver = await harness.receiver();
    receiver.answer = (_request, index) => (index < 3 ? 503 : 204);
    const hook = await register(user, receiver, ['account.created']);
    await createAccount(user, 'Savings');
    const got = await receiver.waitFor(4);
    expect(new Set(got.map((request) => request.headers['webhook-id'])).size).toBe(1);
    expect(new Set(got.map((request) => request.body)).size).toBe(1);
    for (const request of got)
      expect(() => new Webhook(hook.secret).verify(request.body, request.headers)).not.toThrow();
    const [delivery] = await until('the delivery to succeed', async () => {
      const list = await deliveriesOf(user, hook.id);
      return list[0]?.status === 'succeeded' && list;
    });
    expect(delivery.attempts.map((attempt) => attempt.status_code)).toEqual([503, 503, 503, 204]);
    expect(delivery.attempts[0].error).toBe('the receiver answered HTTP 503');
    expect(delivery.message_id).toBe(got[0].headers['webhook-id']);
  });

  it('when a change rolls back, then nothing is sent for it; the next committed change is', async () => {
    const user = await harness.connect();
    const receiver = await harness.receiver();
    const hook = await register(user, receiver, ['tag.created']);
    const store = harness.api.deps.store;
    await expect(
      store.change({ userId: user.userId }, async (change) => {
        await harness.api.deps.repos.tags.create(change, { name: 'rolled back', type: 'expense' });
        throw new Error('abort the change');
      }),
    ).rejects.toThrow('abort the change');
    const [{ count }] = await harness.api.deps.dataSource.query(
      `SELECT count(*)::int AS count FROM webhook_events WHERE user_id = $1`,
      [user.userId],
    );
    expect(count).toBe(0);
    const committed = await request(app())
      .post('/tags')
      .set('Authorization', user.auth)
      .send({ name: 'committed', type: 'expense' })
      .expect(201);
    const [only] = await receiver.waitFor(1);
    const body = new Webhook(hook.secret).verify(only.body, only.headers) as Payload;
    expect(body.data).toMatchObject({ id: committed.body.id, name: 'committed' });
    await until(
      'the delivery to be recorded',
      async () => (await deliveriesOf(user, hook.id))[0]?.status === 'succeeded',
    );
    expect(receiver.received).toHaveLength(1);
    expect(await deliveriesOf(user, hook.id)).toHaveLength(1);
  });

  it("when another user changes data, then this user's webhook is not told", async () => {
    const user = await harness.connect();
    const other = await harness.connect();
    const receiver = await harness.receiver();
    await register(user, receiver, ['account.created']);
    await createAccount(other, 'Not yours');
    await createAccount(user, 'Yours');
    const [got] = await receiver.waitFor(1);
    expect(JSON.parse(got.body).data.name).toBe('Yours');
    await new Promise((resolve) => setImmediate(resolve));
    expect(receiver.received.map((request) => JSON.parse(request.body).data.name)).toEqual(['Yours']);
  });

  it('when a delivery is redelivered by hand, then the same message is sent again and logged', async () => {
    const user = await harness.connect();
    const receiver = await harness.receiver();
    const hook = await register(user, receiver, ['category.created']);
    await createCategory(app(), user, { name: 'Rent', type: 'expense' });
    const [first] = await receiver.waitFor(1);
    const [delivery] = await until('the delivery', async () => {
      const list = await deliveriesOf(user, hook.id);
      return list[0]?.status === 'succeeded' && list;
    });
    const again = await request(app())
      .post(`/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(again.body.status).toBe('pending');
    const [, second] = await receiver.waitFor(2);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    const logged = await until('two attempts', async () => {
      const shown = await request(app())
        .get(`/webhooks/${hook.id}/deliveries/${delivery.id}`)
        .set('Authorization', user.auth)
        .expect(200);
      return shown.body.status === 'succeeded' && shown.body.attempts.length === 2 && shown.body;
    });
    expect((logged as DeliveryShown).attempts.map((attempt) => attempt.status_code)).toEqual([200, 200]);
  });

  it('when the URL now points at a private address, then the delivery is refused at send time, nothing connects', async () => {
    const user = await harness.connect();
    const receiver = await harness.receiver();
    const hook = await register(user, receiver, ['account.updated', 'account.created']);
    // As if the name had been re-pointed after registration: the worker checks again before each attempt.
    await harness.api.deps.dataSource.query(
      `UPDATE webhooks SET url = 'https://10.11.12.13:9/hook' WHERE id = $1`,
      [hook.id],
    );
    await createAccount(user, 'Rebound');
    const [delivery] = await until('a refused attempt', async () => {
      const list = await deliveriesOf(user, hook.id);
      return Boolean(list[0]?.attempts?.length) && list;
    });
    expect(delivery.attempts[0].error).toBe(
      'refused: host 10.11.12.13 resolves to 10.11.12.13, which is a private address',
    );
    expect(delivery.attempts[0].status_code).toBeUndefined();
    expect(receiver.received).toHaveLength(0);
  });

  it('when the receiver redirects, then the redirect is not followed: a failed attempt, nothing reaches its target', async () => {
    const user = await harness.connect();
    const receiver = await harness.receiver();
    const target = await harness.receiver();
    receiver.answer = () => 307;
    receiver.location = target.url;
    const hook = await register(user, receiver, ['tag.created']);
    await request(app())
      .post('/tags')
      .set('Authorization', user.auth)
      .send({ name: 'redirected', type: 'expense' })
      .expect(201);
    const [delivery] = await until('two refused attempts', async () => {
      const list = await deliveriesOf(user, hook.id);
      return (list[0]?.attempts?.length ?? 0) >= 2 && list;
    });
    expect(delivery.attempts[0]).toMatchObject({
      status_code: 307,
      error: 'the receiver answered HTTP 307',
    });
    expect(target.received).toHaveLength(0);
  });
});
