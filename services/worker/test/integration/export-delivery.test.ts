import { S3Storage } from '@pfs/storage';
import { buffer, text } from 'node:stream/consumers';
import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { startS3rver, RunningS3rver } from '../../../../libs/storage/test/start-s3rver';
import { createMailer } from '@pfs/mail';
import { cleanupExpiredExports } from '../../src/use-cases/cleanup-expired-exports.use-case';
import { runExport } from '../../src/use-cases/run-export.use-case';
import { createTestPipeline, TestPipeline } from '../support/pipeline-deps';
import { parseCsv, parseXlsx } from '../support/read-export-file';
import { LedgerSeed } from '../support/seed-ledger';

const exportOf = (pipeline: TestPipeline, userId: string, formats: string[]) =>
  pipeline.deps.repos.store.change(userId, (change) =>
    pipeline.deps.repos.exports.create(change, {
      type: 'export',
      resources: ['expenses'],
      formats,
      filters: null,
      from: null,
      to: null,
    }),
  );

describe('exports stored on S3', () => {
  let s3: RunningS3rver;
  let pipeline: TestPipeline;
  beforeAll(async () => {
    s3 = await startS3rver('pfs-exports-s3-test');
    const storage = new S3Storage({
      bucket: s3.bucket,
      region: 'us-east-1',
      endpoint: s3.endpoint,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
    });
    pipeline = await createTestPipeline({ storage });
  });
  afterAll(async () => {
    await pipeline.close();
    await s3.stop();
  });

  it('when an export is generated on S3, then its presigned link downloads the workbook, matching the ledger', async () => {
    const seed = await LedgerSeed.forNewUser(pipeline.dataSource);
    const account = await seed.account('Card');
    await seed.entry({ account, amount: '-19.99', date: '2026-05-01', description: 'cinema' });
    const created = await exportOf(pipeline, seed.userId, ['xlsx']);
    const done = (await runExport(pipeline.deps, seed.userId, created.id))!;
    expect(done.status).toBe('sent');
    expect(
      done.downloadUrl!.startsWith(`${s3.endpoint}/${s3.bucket}/exports/${seed.userId}/${created.id}/`),
    ).toBe(true);
    expect(new URL(done.downloadUrl!).searchParams.get('X-Amz-Expires')).toBe('3600');
    const response = await fetch(done.downloadUrl!);
    expect(response.status).toBe(200);
    const sheets = await parseXlsx(Buffer.from(await response.arrayBuffer()));
    expect(sheets.Expenses[1].slice(0, 7)).toEqual([
      '2026-05-01',
      'Card',
      undefined,
      undefined,
      -19.99,
      'EUR',
      'cinema',
    ]);
  });

  it('when an S3 export expires, then the cleanup job deletes the object and the export', async () => {
    const seed = await LedgerSeed.forNewUser(pipeline.dataSource);
    const done = (await runExport(
      pipeline.deps,
      seed.userId,
      (await exportOf(pipeline, seed.userId, ['csv'])).id,
    ))!;
    expect(await pipeline.deps.storage.size(done.storageKey!)).toBeGreaterThan(0);
    await pipeline.dataSource.query(
      `UPDATE exports SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [done.id],
    );
    expect(await cleanupExpiredExports(pipeline.deps)).toBeGreaterThanOrEqual(1);
    expect(await pipeline.deps.storage.size(done.storageKey!)).toBeUndefined();
    expect(
      await pipeline.deps.repos.exports.findById(pipeline.deps.repos.store.read(seed.userId), done.id),
    ).toBeUndefined();
    const deleted = (await pipeline.deps.repos.exports.findById(
      pipeline.deps.repos.store.read(seed.userId),
      done.id,
      {
        includeDeleted: true,
      },
    ))!;
    expect(deleted).toMatchObject({ deleted: true, storageKey: null, downloadUrl: null });
  });
});

describe('exports on the filesystem, emailed when SMTP_URL is set', () => {
  let pipeline: TestPipeline;
  let smtp: SMTPServer;
  const mails: Array<{ to: string; raw: string }> = [];
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        void text(stream).then((raw) => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    pipeline = await createTestPipeline({
      mailer: createMailer(`smtp://127.0.0.1:${port}`, 'PFS <exports@pfs.test>'),
    });
  });
  afterAll(async () => {
    pipeline.deps.mailer?.close();
    await pipeline.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('when the export is sent, then the user gets one email with the download link', async () => {
    const seed = await LedgerSeed.forNewUser(pipeline.dataSource);
    const user = (await pipeline.deps.repos.users.findById(seed.userId))!;
    const done = (await runExport(
      pipeline.deps,
      seed.userId,
      (await exportOf(pipeline, seed.userId, ['csv'])).id,
    ))!;
    expect(done.status).toBe('sent');
    const mine = mails.filter((mail) => mail.to === user.email);
    expect(mine).toHaveLength(1);
    const unfolded = mine[0].raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(unfolded).toContain('Subject: Your export is ready');
    expect(unfolded).toContain(done.downloadUrl!);
    expect(
      await parseCsv((await buffer((await pipeline.deps.storage.read(done.storageKey!)).body)).toString()),
    ).toHaveLength(1);
  });

  it('when an fs export expires, then cleanup removes the file', async () => {
    const seed = await LedgerSeed.forNewUser(pipeline.dataSource);
    const done = (await runExport(
      pipeline.deps,
      seed.userId,
      (await exportOf(pipeline, seed.userId, ['csv'])).id,
    ))!;
    await pipeline.dataSource.query(
      `UPDATE exports SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [done.id],
    );
    await cleanupExpiredExports(pipeline.deps);
    expect(await pipeline.deps.storage.size(done.storageKey!)).toBeUndefined();
  });
});
