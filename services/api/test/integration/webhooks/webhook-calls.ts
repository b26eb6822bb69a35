import request from 'supertest';
import type { TestUser } from '../../support/api-test-app';
import type { Receiver, WebhookHarness } from './webhook-harness';

/** The body every webhook receives (docs/webhooks.md). */
export interface Payload {
  type: string;
  timestamp: string;
  modified?: string;
  data: Record<string, unknown>;
}

/** A delivery as GET /webhooks/{id}/deliveries shows it. */
export interface DeliveryShown {
  id: string;
  status: string;
  message_id: string;
  attempts: Array<{ date: string; status_code?: number; latency_ms: number; error?: string }>;
}

/** The API calls the webhook tests make, over HTTP against the harness's app. */
export function webhookCalls(harness: () => WebhookHarness) {
  const app = () => harness().api.app;
  return {
    async register(user: TestUser, receiver: Receiver, events: string[]) {
      const answer = await request(app())
        .post('/webhooks')
        .set('Authorization', user.auth)
        .send({ url: receiver.url, events })
        .expect(201);
      return answer.body as { id: string; secret: string };
    },
    async createAccount(user: TestUser, name = 'Wallet'): Promise<string> {
      const answer = await request(app())
        .post('/accounts')
        .set('Authorization', user.auth)
        .send({ name, currency: { code: 'EUR' } })
        .expect(201);
      return answer.body.id;
    },
    async createEntry(user: TestUser, account: string, category: string, desc: string) {
      const answer = await request(app())
        .post('/entries')
        .set('Authorization', user.auth)
        .send({ amount: -12.5, currency: { code: 'EUR' }, date: '2026-03-10', desc, account, category })
        .expect(201);
      return answer.body as { id: string; modified: string };
    },
    async deliveriesOf(user: TestUser, webhookId: string) {
      const answer = await request(app())
        .get(`/webhooks/${webhookId}/deliveries`)
        .set('Authorization', user.auth)
        .expect(200);
      return answer.body as DeliveryShown[];
    },
  };
}
