import request from 'supertest';
import type { TestUser } from '../../support/api-test-app';
import { webhookCalls } from './webhook-calls';
import { startWebhookHarness, until, WebhookHarness } from './webhook-harness';

let harness: WebhookHarness;
const { register, createAccount, deliveriesOf } = webhookCalls(() => harness);

beforeAll(async () => {
  harness = await startWebhookHarness();
}, 60_000);
afterAll(() => harness.close());

const app = () => harness.api.app;
/** The harness disables a webhook after 5 s of failures (WEBHOOK_DISABLE_AFTER_SECONDS). */
const DISABLE_AFTER_MS = 5_000;

const webhookOf = async (user: TestUser, id: string) =>
  (await request(app()).get(`/webhooks/${id}`).set('Authorization', user.auth).expect(200)).body;

const disabledNotices = async (user: TestUser) => {
  const answer = await request(app()).get('/me/notifications').set('Authorization', user.auth).expect(200);
  return (answer.body as Array<{ type: string; action: string }>).filter(
    (notification) => notification.type === 'webhook' && notification.action === 'disabled',
  );
};

/** A fault of the notifications table for webhook notices only: the insert fails inside its transaction. */
const FAULT = {
  on: `CREATE FUNCTION test_refuse_webhook_notice() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION 'injected fault: notification refused'; END $$;
       CREATE TRIGGER test_refuse_webhook_notice BEFORE INSERT ON notifications
         FOR EACH ROW WHEN (NEW.type = 'webhook') EXECUTE FUNCTION test_refuse_webhook_notice()`,
  off: `DROP TRIGGER test_refuse_webhook_notice ON notifications; DROP FUNCTION test_refuse_webhook_notice()`,
};

describe('automatic disabling after sustained failure', () => {
  it('when every attempt fails for the disable period, then the webhook is disabled and its owner notified at once', async () => {
    const user = await harness.connect();
    const receiver = await harness.receiver();
    receiver.answer = () => 500;
    const hook = await register(user, receiver, ['account.created']);
    await createAccount(user, 'Doomed');
    const disabled = await until('the webhook to be disabled', async () => {
      const shown = await webhookOf(user, hook.id);
      return !shown.enabled && shown;
    });
    expect(disabled.disabled_reason).toMatch(
      /^every delivery failed since .* \(last: the receiver answered HTTP 500\)$/,
    );
    // Disabled and notified in one transaction: seen disabled, the notice is already there.
    expect(await disabledNotices(user)).toHaveLength(1);
    const [delivery] = await deliveriesOf(user, hook.id);
    expect(delivery.status).toBe('cancelled');
    const attempts = delivery.attempts.length;
    // A new change reaches no disabled webhook: the outbox records nothing for it.
    await createAccount(user, 'After');
    const [{ count }] = await harness.api.deps.dataSource.query(
      `SELECT count(*)::int AS count FROM webhook_events WHERE user_id = $1`,
      [user.userId],
    );
    expect(count).toBe(0);
    expect((await deliveriesOf(user, hook.id))[0].attempts).toHaveLength(attempts);
  }, 40_000);

  it('when notifying the owner fails, then the webhook is not disabled either; once it can be, both happen', async () => {
    const user = await harness.connect();
    const receiver = await harness.receiver();
    receiver.answer = () => 500;
    const hook = await register(user, receiver, ['account.created']);
    const db = harness.api.deps.dataSource;
    await db.query(FAULT.on);
    try {
      await createAccount(user, 'Doomed');
      // Two attempts past the disable period: the first one's disabling ran (and failed) before the second.
      await until('two attempts past the disable period', async () => {
        const [delivery] = await deliveriesOf(user, hook.id);
        const dates = (delivery?.attempts ?? []).map((attempt) => Date.parse(attempt.date));
        return dates.filter((date) => date - dates[0] >= DISABLE_AFTER_MS).length >= 2;
      });
      const shown = await webhookOf(user, hook.id);
      expect({ enabled: shown.enabled, reason: shown.disabled_reason ?? null }).toEqual({
        enabled: true,
        reason: null,
      });
      expect(await disabledNotices(user)).toHaveLength(0);
      expect((await deliveriesOf(user, hook.id))[0].status).toBe('pending');
    } finally {
      await db.query(FAULT.off);
    }
    await until('the webhook to be disabled', async () => !(await webhookOf(user, hook.id)).enabled);
    expect(await disabledNotices(user)).toHaveLength(1);
    expect((await deliveriesOf(user, hook.id))[0].status).toBe('cancelled');
  }, 60_000);
});
