import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { createPersonalToken } from '../../../../auth/src/use-cases/personal-tokens.use-case';
import { revokeClientAccess } from '../../../../auth/src/use-cases/revoke-grants.use-case';
import { obtainTokens } from '../../../../auth/test/support/browser-flow';
import { revokeTokens } from '../../../../cli/src/use-cases/revoke-tokens';
import { issueToken, TestUser } from '../../support/api-test-app';
import { webhookCalls } from './webhook-calls';
import { startWebhookHarness, until, WebhookHarness } from './webhook-harness';

// Real sign-ins and consents, at times on a loaded machine: bounded generously.
jest.setTimeout(60_000);

let harness: WebhookHarness;
const { register, createAccount, deliveriesOf } = webhookCalls(() => harness);

beforeAll(async () => {
  harness = await startWebhookHarness();
}, 60_000);
afterAll(() => harness.close());

/** Another application of the same user, still let in: it makes the changes once the first one is out. */
const otherApp = (user: TestUser) =>
  issueToken(harness.api.deps, user.userId, 'accounts:rw categories:rw entries:rw', {
    client_id: 'another-app',
  });

/**
 * Resolves once the relay has taken every outbox event of the user. An event becomes its deliveries in the
 * statement that removes it from the outbox, so once it is gone no delivery of it can appear any more.
 */
const relayed = (userId: string) =>
  until('the outbox to be relayed', async () => {
    const [{ count }] = await harness.api.deps.dataSource.query(
      `SELECT count(*)::int AS count FROM webhook_events WHERE user_id = $1`,
      [userId],
    );
    return count === 0;
  });

/** The webhook's deliveries as stored (the application that could list them has lost access). */
const storedDeliveries = (webhookId: string): Promise<Array<{ status: string; attempts: number }>> =>
  harness.api.deps.dataSource.query(
    `SELECT status, attempts FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY id`,
    [webhookId],
  );

const enabled = async (webhookId: string): Promise<boolean | undefined> => {
  const [row] = await harness.api.deps.dataSource.query(`SELECT enabled FROM webhooks WHERE id = $1`, [
    webhookId,
  ]);
  return row?.enabled;
};

describe('webhooks of an application the user no longer lets in', () => {
  it('when the app revokes its grant (POST /oauth2/revoke), then later changes are not delivered to its webhook', async () => {
    const user = await harness.connect();
    const receiver = await harness.receiver();
    const hook = await register(user, receiver, ['account.created']);
    await createAccount(user, 'Before');
    const [before] = await receiver.waitFor(1);
    expect(new Webhook(hook.secret).verify(before.body, before.headers)).toMatchObject({
      data: { name: 'Before' },
    });

    await request(harness.auth.app)
      .post('/oauth2/revoke')
      .set('Authorization', user.auth)
      .type('form')
      .send({ refresh_token: user.refreshToken })
      .expect(204);
    const other = await otherApp(user);
    await createAccount({ ...user, ...other }, 'After');
    await relayed(user.userId);

    expect(await storedDeliveries(hook.id)).toEqual([{ status: 'succeeded', attempts: 1 }]);
    expect(receiver.received).toHaveLength(1);
    // The webhook is kept (inert): the app sees it again if the user lets it in again.
    expect(await enabled(hook.id)).toBe(true);
  });

  it("when the user revokes the app's access while a delivery is being retried, then it is cancelled, not sent again", async () => {
    const user = await harness.connect();
    const receiver = await harness.receiver();
    receiver.answer = () => 503;
    const hook = await register(user, receiver, ['account.created']);
    await createAccount(user, 'Retried');
    await receiver.waitFor(2);

    // "Revoke access" on the account's connected-apps page.
    await revokeClientAccess(harness.auth.deps, { userId: user.userId, clientId: user.client.client_id });
    const [cancelled] = await until('the delivery to be cancelled', async () => {
      const rows = await storedDeliveries(hook.id);
      return rows[0]?.status === 'cancelled' && rows;
    });
    // Cancelled because the app is out, not because the webhook failed long enough to be disabled.
    expect(await enabled(hook.id)).toBe(true);
    // Every request the receiver got is a logged attempt made before the revocation; none after it.
    expect(receiver.received).toHaveLength(cancelled.attempts);
    const other = await otherApp(user);
    await createAccount({ ...user, ...other }, 'After');
    await relayed(user.userId);
    expect(await storedDeliveries(hook.id)).toHaveLength(1);
    expect(receiver.received).toHaveLength(cancelled.attempts);
  });

  it('when every token of the user is revoked (token:revoke-all), then personal-token and app webhooks go quiet', async () => {
    const user = await harness.connect();
    const personal = await createPersonalToken(harness.auth.deps, { userId: user.userId, name: 'Scripts' });
    const personalUser = { ...user, token: personal.token, auth: `Bearer ${personal.token}` };
    const personalReceiver = await harness.receiver();
    const appReceiver = await harness.receiver();
    const personalHook = await register(personalUser, personalReceiver, ['account.created']);
    const appHook = await register(user, appReceiver, ['account.created']);
    await createAccount(personalUser, 'Before');
    await personalReceiver.waitFor(1);
    await appReceiver.waitFor(1);
    const personalShown = await deliveriesOf(personalUser, personalHook.id);
    expect(personalShown.map((delivery) => delivery.status)).toEqual([expect.any(String)]);

    await revokeTokens(harness.auth.deps, { userId: user.userId });
    const other = await otherApp(user);
    await createAccount({ ...user, ...other }, 'After');
    await relayed(user.userId);

    expect(await storedDeliveries(personalHook.id)).toHaveLength(1);
    expect(await storedDeliveries(appHook.id)).toHaveLength(1);
    expect(personalReceiver.received).toHaveLength(1);
    expect(appReceiver.received).toHaveLength(1);
  });

  it('when the user lets the app in again, then its kept webhook is delivered again, without what changed meanwhile', async () => {
    const user = await harness.connect();
    const receiver = await harness.receiver();
    const hook = await register(user, receiver, ['account.created']);
    await revokeClientAccess(harness.auth.deps, { userId: user.userId, clientId: user.client.client_id });
    const other = { ...user, ...(await otherApp(user)) };
    await createAccount(other, 'While out');
    await relayed(user.userId);

    // Sign-in and consent again: a new grant to the same application.
    await obtainTokens(harness.auth.app, user.client, user);
    await createAccount(other, 'Back');
    const [got] = await receiver.waitFor(1);
    expect(new Webhook(hook.secret).verify(got.body, got.headers)).toMatchObject({ data: { name: 'Back' } });
    await relayed(user.userId);
    expect(receiver.received).toHaveLength(1);
    expect(await storedDeliveries(hook.id)).toHaveLength(1);
  });
});
