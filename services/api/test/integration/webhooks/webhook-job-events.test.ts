import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { createCategory } from '../../support/api-test-app';
import { importFile } from '../imports/import-harness';
import { Payload, webhookCalls } from './webhook-calls';
import { startWebhookHarness, WebhookHarness } from './webhook-harness';

// Each test runs a real job (an export, an import) after the real sign-in and consent: bounded generously.
jest.setTimeout(60_000);

let harness: WebhookHarness;
const { register, createAccount, deliveriesOf } = webhookCalls(() => harness);

beforeAll(async () => {
  harness = await startWebhookHarness();
}, 60_000);
afterAll(() => harness.close());

const app = () => harness.api.app;

const STATEMENT = ['Date,Text,Amount', '2026-03-01,Coffee shop,-3.20', '2026-03-02,Salary,2500.00'].join(
  '\n',
);

describe("events of the worker's jobs, end to end", () => {
  it('when an export is requested, then the worker generates it and export.generated carries it as GET /exports/{id} shows it', async () => {
    const user = await harness.connect();
    const receiver = await harness.receiver();
    const hook = await register(user, receiver, ['export.generated']);
    const account = await createAccount(user, 'Current');
    const category = await createCategory(app(), user, { name: 'Books', type: 'expense' });
    await request(app())
      .post('/entries')
      .set('Authorization', user.auth)
      .send({
        amount: -42.1,
        currency: { code: 'EUR' },
        date: '2026-04-02',
        desc: 'books',
        account,
        category,
      })
      .expect(201);
    const posted = await request(app())
      .post('/exports')
      .set('Authorization', user.auth)
      .send({
        type: 'export',
        resources: ['expenses'],
        formats: ['csv'],
        from: '2026-04-01',
        to: '2026-04-30',
      })
      .expect(201);
    const id = String(posted.headers.location).split('/').pop();

    const [got] = await receiver.waitFor(1);
    const body = new Webhook(hook.secret).verify(got.body, got.headers) as Payload;
    const shown = (await request(app()).get(`/exports/${id}`).set('Authorization', user.auth).expect(200))
      .body;
    expect(body.type).toBe('export.generated');
    expect(body.modified).toBe(body.data.modified);
    // Rendered when relayed: the file is ready; the export may have moved on to being sent since (status and
    // modified then differ from the final GET, nothing else does).
    expect(['generated', 'sending', 'sent']).toContain(body.data.status);
    expect(body.data).toEqual({ ...shown, status: body.data.status, modified: body.data.modified });
    expect(body.data.data).toMatchObject({ filename: `expenses-${id}.csv`, filesize: expect.any(Number) });
    const [delivery] = await deliveriesOf(user, hook.id);
    expect(delivery.message_id).toBe(got.headers['webhook-id']);
    expect(receiver.received).toHaveLength(1);
  });

  it('when a CSV statement is imported by the worker, then import.imported carries the import as GET /imports/{id} shows it', async () => {
    const user = await harness.connect();
    const receiver = await harness.receiver();
    const hook = await register(user, receiver, ['import.imported', 'entry.created']);
    const account = await createAccount(user, 'Bank');
    const done = await importFile(harness.api, user, STATEMENT, 'march.csv', {
      account,
      mapping: { date: 'Date', amount: 'Amount', description: 'Text' },
      date_format: 'YYYY-MM-DD',
    });
    expect(done).toMatchObject({ status: 'imported', entries_created: 2 });

    // Two entry.created (written by the import's batch) and one import.imported, in any order.
    const got = await receiver.waitFor(3);
    const bodies = got.map(
      (message) => new Webhook(hook.secret).verify(message.body, message.headers) as Payload,
    );
    expect(bodies.map((body) => body.type).sort()).toEqual([
      'entry.created',
      'entry.created',
      'import.imported',
    ]);
    const imported = bodies.find((body) => body.type === 'import.imported')!;
    const shown = (
      await request(app()).get(`/imports/${done.id}`).set('Authorization', user.auth).expect(200)
    ).body;
    expect(imported).toEqual({
      type: 'import.imported',
      timestamp: expect.any(String),
      modified: shown.modified,
      data: shown,
    });
    const descs = bodies.filter((body) => body.type === 'entry.created').map((body) => body.data.desc);
    expect(descs.sort()).toEqual(['Coffee shop', 'Salary']);
  });
});
