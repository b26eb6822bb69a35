import { dropDatabase } from '@pfs/resource-store';
import { testLogger } from '@pfs/testing';
import type { Worker } from 'bullmq';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { loadWorkerConfig } from '../../../../worker/src/config';
import { webhookDeliveryOf, workerRepositories } from '../../../../worker/src/dependencies';
import { startWebhookWorker } from '../../../../worker/src/worker';
import { webhookPayloadRenderer } from '../../../src/modules/webhooks/webhook-payloads';
import { startWebhookRelay, type WebhookRelay } from '../../../src/modules/webhooks/webhook-relay';
import { ApiTestApp, startApiTestApp } from '../../support/api-test-app';

/** One request a receiver got: its headers and the exact bytes of its body. */
export interface Received {
  headers: Record<string, string>;
  body: string;
}

/** A loopback HTTPS receiver; `answer` picks each request's status (default 200). */
export interface Receiver {
  url: string;
  received: Received[];
  answer: (request: Received, index: number) => number;
  /** Resolves once `count` requests arrived (fails after 20 s: nothing is timed, only bounded). */
  waitFor(count: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function until<T>(what: string, probe: () => Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function startReceiver(tls: { key: string; cert: string }): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    received: [],
    answer: () => 200,
    waitFor: (count) =>
      until(`${count} webhook requests`, async () => receiver.received.length >= count && receiver.received),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server: Server = createServer(tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString(),
      };
      receiver.received.push(request);
      res.statusCode = receiver.answer(request, receiver.received.length - 1);
      res.end('ok');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      receiver.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      resolve(receiver);
    }),
  );
}

export interface WebhookHarness {
  api: ApiTestApp;
  worker: Worker;
  relay: WebhookRelay;
  /** A new receiver with the harness's certificate (trusted by the worker through WEBHOOK_CA_FILE). */
  receiver(): Promise<Receiver>;
  close(): Promise<void>;
}

/**
 * The real path of a webhook: the API in-process (routes, outbox triggers, the relay every 50 ms) and a
 * BullMQ webhook worker on a Postgres database and a Redis prefix of their own, delivering to loopback HTTPS
 * receivers whose self-signed certificate is generated here and trusted through WEBHOOK_CA_FILE. Retries
 * are fast (100 ms doubling to 400 ms) and a webhook is disabled after 5 s of failures.
 */
export async function startWebhookHarness(): Promise<WebhookHarness> {
  const dir = await mkdtemp(join(tmpdir(), 'pfs-webhooks-'));
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    extensions: [
      { name: 'basicConstraints', cA: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  const caFile = join(dir, 'receiver-ca.pem');
  await writeFile(caFile, pems.cert);
  // A database of its own: the relay claims every user's outbox events, so sharing the run's database would
  // let it deliver (and disable) the webhooks other suites register.
  const databaseUrl = `${process.env.DATABASE_URL}_wh${Math.random().toString(36).slice(2, 8)}`;
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX}wh-${Math.random().toString(36).slice(2, 8)}:`,
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    WEBHOOK_RELAY_INTERVAL_MS: '0',
    WEBHOOK_RETRY_BASE_MS: '100',
    WEBHOOK_RETRY_MAX_DELAY_MS: '400',
    WEBHOOK_RETRY_WINDOW_SECONDS: '60',
  };
  const api = await startApiTestApp(env);
  const config = loadWorkerConfig({
    ...process.env,
    ...env,
    WEBHOOK_CA_FILE: caFile,
    WEBHOOK_DISABLE_AFTER_SECONDS: '5',
    WEBHOOK_TIMEOUT_MS: '5000',
  });
  const logger = testLogger();
  const worker = startWebhookWorker(
    config,
    logger,
    webhookDeliveryOf(config, logger, workerRepositories(api.deps.dataSource)),
  );
  await worker.waitUntilReady();
  const relay = startWebhookRelay(
    {
      deliveries: api.deps.repos.webhookDeliveries,
      queue: api.deps.webhookQueue,
      render: webhookPayloadRenderer(api.deps),
      logger,
    },
    50,
  );
  const receivers: Receiver[] = [];
  return {
    api,
    worker,
    relay,
    async receiver() {
      const receiver = await startReceiver({ key: pems.private, cert: pems.cert });
      receivers.push(receiver);
      return receiver;
    },
    async close() {
      await relay.stop();
      await worker.close();
      await Promise.all(receivers.map((receiver) => receiver.close()));
      await api.close();
      await dropDatabase(databaseUrl);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
