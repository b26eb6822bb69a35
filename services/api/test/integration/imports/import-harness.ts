import { testLogger } from '@pfs/testing';
import type { Worker } from 'bullmq';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { loadWorkerConfig } from '../../../../worker/src/config';
import { importDependencies, workerRepositories } from '../../../../worker/src/dependencies';
import { handleImportJob } from '../../../../worker/src/processors/import.processor';
import { startImportWorker } from '../../../../worker/src/worker';
import type { ImportDependencies } from '../../../../worker/src/use-cases/import-dependencies';
import { ApiTestApp, createTestUser, startApiTestApp, TestUser } from '../../support/api-test-app';

/** The parts of the JSON answers the tests read. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ImportBody = Record<string, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type EntryBody = Record<string, any>;

export interface ImportHarness {
  api: ApiTestApp;
  storageDir: string;
  worker: Worker;
  close(): Promise<void>;
}

/**
 * The API and a real import worker on their own Redis prefix and storage dir: POST /imports stores the file,
 * queues the job through BullMQ, and the worker parses and writes the entries.
 */
export async function startImportHarness(env: Record<string, string> = {}): Promise<ImportHarness> {
  const storageDir = await mkdtemp(join(tmpdir(), 'pfs-api-imports-'));
  const all = {
    REDIS_KEY_PREFIX: `${process.env.REDIS_KEY_PREFIX}imp-${Math.random().toString(36).slice(2, 8)}:`,
    STORAGE_DIR: storageDir,
    STORAGE_DRIVER: 'fs',
    ...env,
  };
  const api = await startApiTestApp(all);
  const worker = await startImportWorkerFor(api);
  return {
    api,
    storageDir,
    worker,
    async close() {
      await worker.close();
      await api.close();
      await rm(storageDir, { recursive: true, force: true });
    },
  };
}

/** The scopes a suite's users get by default: every resource an import reads or writes. */
export const IMPORT_SCOPES = 'user:rw entries:rw accounts:rw categories:rw tags:rw';

/**
 * One import harness for the suite (started before its tests, closed after them): `api()` is its API,
 * `newUser()` a new user with `scopes`.
 */
export function useImportHarness(scopes = IMPORT_SCOPES) {
  let harness: ImportHarness;
  beforeAll(async () => {
    harness = await startImportHarness();
  });
  afterAll(() => harness.close());
  const api = () => harness.api;
  return { api, newUser: (): Promise<TestUser> => createTestUser(api().deps, scopes) };
}

/** A real import worker consuming the imports queue of `api` (same Redis prefix, same storage). */
export async function startImportWorkerFor(
  api: ApiTestApp,
  adapt: (deps: ImportDependencies) => ImportDependencies = (deps) => deps,
): Promise<Worker> {
  const config = loadWorkerConfig({ ...process.env, REDIS_KEY_PREFIX: api.deps.config.REDIS_KEY_PREFIX });
  const deps = adapt(workerImportDependencies(api));
  const worker = startImportWorker(config, testLogger(), handleImportJob(deps));
  await worker.waitUntilReady();
  return worker;
}

/** The import pipeline's dependencies over the API's database and storage, as the worker builds them. */
export function workerImportDependencies(api: ApiTestApp): ImportDependencies {
  return importDependencies(workerRepositories(api.deps.dataSource), api.deps.storage, testLogger());
}

export interface UploadFields {
  [field: string]: string | boolean | Record<string, string>;
}

/** POST /imports with a file made in the test; returns the raw answer. */
export function postImport(
  api: ApiTestApp,
  user: TestUser,
  file: string | Buffer,
  name: string,
  fields: UploadFields,
) {
  const call = request(api.app).post('/imports').set('Authorization', user.auth);
  for (const [field, value] of Object.entries(fields)) {
    call.field(field, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return call.attach('file', Buffer.isBuffer(file) ? file : Buffer.from(file), name);
}

/** Polls GET /imports/{id} until the import is finished (imported, error, or a dry run's parsed). */
export async function waitForImport(api: ApiTestApp, user: TestUser, id: string): Promise<ImportBody> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await request(api.app).get(`/imports/${id}`).set('Authorization', user.auth).expect(200);
    const body = answer.body;
    if (['imported', 'error'].includes(body.status) || (body.status === 'parsed' && body.dry_run))
      return body;
    if (Date.now() > deadline) throw new Error(`import ${id} stuck in ${body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Uploads and waits for the import to finish. */
export async function importFile(
  api: ApiTestApp,
  user: TestUser,
  file: string | Buffer,
  name: string,
  fields: UploadFields,
) {
  const answer = await postImport(api, user, file, name, fields).expect(201);
  return waitForImport(api, user, answer.body.id);
}

/** The user's live entries of an account, as the API lists them, oldest date first. */
export async function entriesOf(api: ApiTestApp, user: TestUser, account: string) {
  const answer = await request(api.app)
    .get(`/entries?accounts=${account}&from=1900-01-01&to=2200-12-31&per_page=500`)
    .set('Authorization', user.auth)
    .expect(200);
  return (answer.body as EntryBody[]).sort((a, b) =>
    `${a.date}${a.desc ?? ''}`.localeCompare(`${b.date}${b.desc ?? ''}`),
  );
}

export async function createAccount(api: ApiTestApp, user: TestUser, body: Record<string, unknown> = {}) {
  const answer = await request(api.app)
    .post('/accounts')
    .set('Authorization', user.auth)
    .send({ name: 'Current', currency: { code: 'EUR' }, initial_balance: 100, ...body })
    .expect(201);
  return String(answer.headers.location).split('/').pop()!;
}

export async function accountOf(api: ApiTestApp, user: TestUser, id: string) {
  return (await request(api.app).get(`/accounts/${id}`).set('Authorization', user.auth).expect(200)).body;
}
