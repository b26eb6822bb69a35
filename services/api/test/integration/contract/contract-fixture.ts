import type { Express } from 'express';
import request from 'supertest';
import { accessTokenKey, AccessTokenRecord, hashToken } from '@pfs/contracts';
import { UserAccountRepository } from '@pfs/resource-store';
import { uniqueEmail } from '@pfs/testing';
import argon2 from 'argon2';
import { ApiTestApp, createTestUser, issueToken, TestUser } from '../../support/api-test-app';
import type { OpenApiParameter, WalkedOperation } from '../../support/openapi-contract';
import { makeImage, PDF_BYTES } from '../images/images-harness';

/** Every scope a user can grant: the contract is checked with nothing withheld. */
export const ALL_SCOPE =
  'user:rw entries:rw budgets:rw accounts:rw images:rw categories:rw tags:rw locations:rw';

/** The fixture's webhooks are told about accounts: their operations need accounts:r (docs/webhooks.md). */
export const WEBHOOK_FIXTURE_SCOPES = ['accounts:r'];

/** Webhook operations: their scope is that of the webhook's events, not a fixed one. */
export const isWebhookOperation = (walked: WalkedOperation) =>
  /^webhook(s|-deliveries)\./.test(String(walked.operation.operationId));

const FROM = '2026-01-01';
const TO = '2026-12-31';
const DAY = '2026-03-10';

/** A request built for one operation: where, what query, what body. */
export interface PlannedRequest {
  path: string;
  query: Record<string, string>;
  body?: unknown;
  contentType?: string;
  /**
   * For an operation that consumes the user itself (DELETE /me): the token to send instead of `auth`, the
   * same scopes for a user of its own, made on the spot with a password.
   */
  rebind?: (auth: string) => Promise<string>;
  /** A multipart/form-data body (POST /imports): its fields and its one file part. */
  multipart?: { fields: Record<string, string>; file: { name: string; bytes: Buffer } };
}

/** A one-row CSV statement: what the contract's import uploads. */
const STATEMENT = Buffer.from(`Date,Amount,Description\n${DAY},-1.50,Contract\n`);

const idOf = (location: string | undefined) => String(location).split('/').pop()!;

/**
 * A user holding one of everything (account, category, tag, entries with a place and an image, a budget,
 * an export, a notification, a picture and a PDF, an import), and the requests that exercise each operation of the
 * document on it. Destructive operations (delete, merge) get objects of their own, made on the spot.
 */
export class ContractFixture {
  private counter = 0;
  readonly ids: Record<string, string> = {};

  private constructor(
    private readonly api: ApiTestApp,
    readonly user: TestUser,
  ) {}

  static async seed(api: ApiTestApp): Promise<ContractFixture> {
    const fixture = new ContractFixture(api, await createTestUser(api.deps, ALL_SCOPE));
    await fixture.seedAll();
    return fixture;
  }

  private get app(): Express {
    return this.api.app;
  }

  private unique(label: string): string {
    this.counter += 1;
    return `${label} ${this.counter}`;
  }

  /** Create bodies by resource, valid for this user's objects. */
  private createBody(resource: string): unknown {
    const { accounts, categories, tags, images } = this.ids;
    switch (resource) {
      case 'categories':
        return { name: this.unique('Groceries'), type: 'expense' };
      case 'tags':
        return { name: this.unique('weekly'), type: 'expense', category: categories };
      case 'accounts':
        return { name: this.unique('Wallet'), currency: { code: 'EUR' } };
      case 'entries':
        return {
          amount: -12.5,
          currency: { code: 'EUR' },
          date: DAY,
          desc: this.unique('Lunch'),
          account: accounts,
          category: categories,
          tags: [tags],
          location: { latitude: 46.05, longitude: 14.5 },
          ...(images ? { images: [{ id: images }] } : {}),
        };
      case 'budgets':
        return {
          name: this.unique('Food'),
          type: 'regular',
          limit: 300,
          currency: { code: 'EUR' },
          recurrence: { frequency: 'monthly', interval: 1, start: FROM },
          categories: [categories],
        };
      case 'exports':
        return { type: 'export', formats: ['csv'], resources: ['expenses'], from: FROM, to: TO };
      case 'webhooks':
        // A loopback receiver (the contract app allows them); nothing is delivered (no worker runs).
        return { url: 'https://127.0.0.1:9/hook', events: ['account.created', 'account.updated'] };
      default:
        throw new Error(`no create body for ${resource}`);
    }
  }

  private async post(path: string, body: unknown): Promise<string> {
    const answer = await request(this.app)
      .post(path)
      .set('Authorization', this.user.auth)
      .send(body as object);
    if (answer.status !== 201) throw new Error(`seed POST ${path}: ${answer.status} ${answer.text}`);
    return idOf(answer.headers.location);
  }

  private async upload(bytes: Buffer, type: string): Promise<string> {
    const answer = await request(this.app)
      .post('/images')
      .set('Authorization', this.user.auth)
      .set('Content-Type', type)
      .send(bytes);
    if (answer.status !== 201) throw new Error(`seed POST /images: ${answer.status} ${answer.text}`);
    return idOf(answer.headers.location);
  }

  private async notification(): Promise<string> {
    const rows: Array<{ id: string }> = await this.api.deps.dataSource.query(
      `INSERT INTO notifications (user_id, type, action, text, change_seq, modified_at)
       VALUES ($1, 'news', 'info', 'Contract', 0, date_trunc('milliseconds', clock_timestamp()))
       RETURNING id::text AS id`,
      [this.user.userId],
    );
    return rows[0].id;
  }

  /** A finished (failed) delivery of the fixture's webhook, for the delivery operations. */
  private async delivery(): Promise<string> {
    const rows: Array<{ id: string }> = await this.api.deps.dataSource.query(
      `INSERT INTO webhook_deliveries (webhook_id, user_id, event_id, event_type, payload, status, queued_at)
       VALUES ($1, $2, nextval(pg_get_serial_sequence('webhook_events', 'id')), 'account.created',
         '{"type": "account.created"}', 'failed', clock_timestamp())
       RETURNING id::text AS id`,
      [this.ids.webhooks, this.user.userId],
    );
    return rows[0].id;
  }

  private async importStatement(): Promise<string> {
    const answer = await request(this.app)
      .post('/imports')
      .set('Authorization', this.user.auth)
      .field(this.importFields())
      .attach('file', STATEMENT, 'statement.csv');
    if (answer.status !== 201) throw new Error(`seed POST /imports: ${answer.status} ${answer.text}`);
    return idOf(answer.headers.location);
  }

  private importFields(): Record<string, string> {
    return { account: this.ids.accounts, dry_run: 'true' };
  }

  /** A new object of `resource`, for an operation that consumes it. */
  private fresh(resource: string): Promise<string> {
    if (resource === 'imports') return this.importStatement();
    if (resource === 'images')
      return makeImage('jpeg', 32, 24).then((bytes) => this.upload(bytes, 'image/jpeg'));
    if (resource === 'me/notifications') return this.notification();
    return this.post(`/${resource}`, this.createBody(resource));
  }

  private async seedAll(): Promise<void> {
    for (const resource of ['accounts', 'categories', 'tags'])
      this.ids[resource] = await this.fresh(resource);
    this.ids.images = await this.fresh('images');
    this.ids.pdf = await this.upload(PDF_BYTES, 'application/pdf');
    this.ids.entries = await this.fresh('entries');
    for (const resource of ['budgets', 'exports', 'me/notifications', 'webhooks', 'imports']) {
      this.ids[resource] = await this.fresh(resource);
    }
    const places = await request(this.app).get('/entries/locations').set('Authorization', this.user.auth);
    this.ids['entries/locations'] = String(places.body[0]?.id);
    this.ids.currencies = 'EUR';
  }

  /** A value for a required query parameter, from its declared schema. */
  private queryValue(parameter: OpenApiParameter): string {
    const schema = parameter.schema as {
      enum?: unknown[];
      format?: string;
      type?: string;
      minimum?: number;
      pattern?: string;
    };
    if (parameter.name === 'from') return FROM;
    if (parameter.name === 'to') return TO;
    if (schema.enum) return String(schema.enum[0]);
    if (parameter.name === 'currency' || schema.pattern === '^[A-Z]{3}$') return 'EUR';
    if (schema.format === 'date') return DAY;
    if (schema.type === 'integer' || schema.type === 'number') return String(schema.minimum ?? 1);
    if (schema.type === 'boolean') return 'true';
    throw new Error(`no sample value for required query parameter ${parameter.name}`);
  }

  private async fetchBack(path: string): Promise<Record<string, unknown>> {
    const answer = await request(this.app).get(path).set('Authorization', this.user.auth);
    if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${answer.text}`);
    return answer.body as Record<string, unknown>;
  }

  /** The request that exercises `walked` with valid data. */
  async plan({ path, method, operation }: WalkedOperation): Promise<PlannedRequest> {
    const resource = path.split('/{')[0].replace(/^\//, '');
    // Notifications are dismissed in bulk by another operation: each check gets one of its own.
    const consumes = method === 'delete' || resource === 'me/notifications';
    const id = path.includes('{') ? (consumes ? await this.fresh(resource) : this.ids[resource]) : undefined;
    const fileId = path.endsWith('/document.pdf') ? this.ids.pdf : id;
    let concrete = path.replace(/\{\w+\}/, String(fileId));
    if (concrete.includes('{delivery_id}'))
      concrete = concrete.replace('{delivery_id}', await this.delivery());
    const query: Record<string, string> = {};
    for (const parameter of operation.parameters ?? []) {
      if (parameter.in === 'query' && parameter.required) query[parameter.name] = this.queryValue(parameter);
    }
    const planned: PlannedRequest = { path: concrete, query };
    if (operation.operationId === 'me.delete') return this.deletedUser(planned);
    if (!operation.requestBody) return planned;
    if (operation.operationId === 'imports.create') {
      planned.multipart = {
        fields: this.importFields(),
        file: { name: 'statement.csv', bytes: STATEMENT },
      };
      return planned;
    }
    planned.body = await this.bodyFor(operation.operationId, resource, concrete, method);
    if (operation.operationId === 'images.create') planned.contentType = 'image/jpeg';
    return planned;
  }

  /** DELETE /me deletes its user: a user of its own with a password, and the same scopes as `auth`. */
  private async deletedUser(planned: PlannedRequest): Promise<PlannedRequest> {
    const password = 'contract password';
    const user = await new UserAccountRepository(this.api.deps.dataSource).create(
      { email: uniqueEmail('contract-delete') },
      { passwordHash: await argon2.hash(password), otpSecret: null, otpEnabledAt: null },
    );
    const rebind = async (auth: string) => {
      const raw = await this.api.deps.redis.get(accessTokenKey(hashToken(auth.replace(/^Bearer /, ''))));
      const record = JSON.parse(raw ?? '{}') as Partial<AccessTokenRecord>;
      return (await issueToken(this.api.deps, user.id, record.scope ?? '')).auth;
    };
    return { ...planned, body: { password }, rebind };
  }

  private async bodyFor(
    operationId: string,
    resource: string,
    path: string,
    method: string,
  ): Promise<unknown> {
    const rel = operationId.split('.').pop();
    if (method === 'put')
      return { ...(await this.fetchBack(path)), ...(resource === 'exports' ? { seen: true } : {}) };
    if (method === 'patch') return { modified: (await this.fetchBack(path)).modified };
    switch (operationId) {
      case 'images.create':
        return makeImage('jpeg', 32, 24);
      case 'categories.merge':
        return { categories: [await this.fresh('categories')], category: await this.fresh('categories') };
      case 'tags.merge':
        return { tags: [await this.fresh('tags')], tag: await this.fresh('tags') };
      case 'accounts.merge':
        return { accounts: [await this.fresh('accounts')], account: await this.fresh('accounts') };
      case 'push.register':
        // An APNs device token: 32 bytes in hex.
        return { type: 'apple', token: 'a1b2c3d4'.repeat(8) };
      case 'entries.manage':
        return { with: { categories: [this.ids.categories] }, add: { tags: [this.ids.tags] } };
    }
    if (rel === 'create') return this.createBody(resource);
    if (rel === 'move') return { position: 0 };
    if (rel === 'reorder') return { order: [this.ids[resource.split('/')[0]]] };
    throw new Error(`no body for ${operationId}`);
  }
}
