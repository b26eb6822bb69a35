import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { startS3rver, RunningS3rver } from '../test/start-s3rver';
import { FsStorage } from './fs-storage.driver';
import { ObjectNotFoundError, ObjectStorage } from './object-storage';
import { S3Storage } from './s3-storage.driver';
import { verifyDownloadToken } from './download-token';

const SECRET = 'test-link-secret';

/** A stream of `count` chunks of 64 KiB, generated lazily so the test itself stays flat in memory. */
function generatedStream(count: number, byte = 0x61): Readable {
  let sent = 0;
  return new Readable({
    read() {
      this.push(sent++ < count ? Buffer.alloc(64 * 1024, byte) : null);
    },
  });
}

let fsRoot: string;
let s3: RunningS3rver;
const drivers: Record<string, () => ObjectStorage> = {};

beforeAll(async () => {
  fsRoot = await mkdtemp(join(tmpdir(), 'pfs-storage-'));
  s3 = await startS3rver();
  drivers.fs = () =>
    new FsStorage({ root: fsRoot, publicBaseUrl: 'http://files.test/export-files', linkSecret: SECRET });
  drivers.s3 = () =>
    new S3Storage({
      bucket: s3.bucket,
      region: 'us-east-1',
      endpoint: s3.endpoint,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
    });
});

afterAll(async () => {
  await rm(fsRoot, { recursive: true, force: true });
  await s3.stop();
});

describe.each(['fs', 's3'])('the %s storage driver', (name) => {
  it('when a stream is written, then it reads back byte for byte and its size is reported', async () => {
    const storage = drivers[name]();
    const { size } = await storage.write('u1/e1/report.csv', Readable.from(['a,b\n', '1,2\n']));
    expect(size).toBe(8);
    expect(await storage.size('u1/e1/report.csv')).toBe(8);
    expect(await text((await storage.read('u1/e1/report.csv')).body)).toBe('a,b\n1,2\n');
  });

  it('when a stream spans several multipart parts, then every byte arrives', async () => {
    const storage = drivers[name]();
    // 12 MiB: three 5 MiB parts on S3.
    const { size } = await storage.write('u1/e2/big.bin', generatedStream(192));
    expect(size).toBe(192 * 64 * 1024);
    let read = 0;
    for await (const chunk of (await storage.read('u1/e2/big.bin')).body) read += (chunk as Buffer).length;
    expect(read).toBe(size);
  });

  it('when an object is deleted, then it is gone, and deleting it again is no error', async () => {
    const storage = drivers[name]();
    await storage.write('u1/e3/gone.txt', Readable.from(['x']));
    await storage.delete('u1/e3/gone.txt');
    expect(await storage.size('u1/e3/gone.txt')).toBeUndefined();
    await expect(storage.read('u1/e3/gone.txt')).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(storage.delete('u1/e3/gone.txt')).resolves.toBeUndefined();
  });

  it('when the object is deleted right after it was opened, then its stream still delivers every byte', async () => {
    const storage = drivers[name]();
    await storage.write('u1/e5/race.bin', generatedStream(32, 0x62));
    for (let round = 0; round < 20; round += 1) {
      const opened = await storage.read('u1/e5/race.bin');
      expect(opened.size).toBe(32 * 64 * 1024);
      // No listener yet and the object gone: the opened stream must neither fail nor crash the process.
      await storage.delete('u1/e5/race.bin');
      await new Promise((resolve) => setTimeout(resolve, 5));
      let read = 0;
      for await (const chunk of opened.body) read += (chunk as Buffer).length;
      expect(read).toBe(opened.size);
      await storage.write('u1/e5/race.bin', generatedStream(32, 0x62));
    }
  });

  it('when a prefix is deleted, then every object under it goes and a sibling prefix stays', async () => {
    const storage = drivers[name]();
    await storage.write('p7/a/one.txt', Readable.from(['1']));
    await storage.write('p7/b/two.txt', Readable.from(['2']));
    await storage.write('p70/kept.txt', Readable.from(['3']));
    expect(await storage.deletePrefix('p7')).toBe(2);
    expect(await storage.size('p7/a/one.txt')).toBeUndefined();
    expect(await storage.size('p7/b/two.txt')).toBeUndefined();
    expect(await storage.size('p70/kept.txt')).toBe(1);
    expect(await storage.deletePrefix('p7')).toBe(0);
  });

  it('when a key tries to climb out of the root, then it is refused', async () => {
    const storage = drivers[name]();
    await expect(storage.write('../escape.txt', Readable.from(['x']))).rejects.toThrow('unsafe storage key');
    await expect(storage.read('u1/../../etc/passwd')).rejects.toThrow('unsafe storage key');
  });

  it('when the source stream fails, then the write fails and nothing is stored', async () => {
    const storage = drivers[name]();
    const failing = new Readable({
      read() {
        this.destroy(new Error('source broke'));
      },
    });
    await expect(storage.write('u1/e4/broken.txt', failing)).rejects.toThrow();
    expect(await storage.size('u1/e4/broken.txt')).toBeUndefined();
  });
});

describe('download links', () => {
  it('when the fs driver signs a link, then its token opens that key only, until it expires', async () => {
    const storage = drivers.fs();
    await storage.write('u2/e1/a.csv', Readable.from(['a']));
    const link = await storage.createDownloadLink('u2/e1/a.csv', { expiresInSeconds: 60, filename: 'a.csv' });
    const url = new URL(link.url);
    expect(url.origin + url.pathname).toBe('http://files.test/export-files/u2/e1/a.csv');
    const token = url.searchParams.get('token')!;
    expect(verifyDownloadToken(SECRET, 'u2/e1/a.csv', token)).toEqual({ valid: true });
    expect(verifyDownloadToken(SECRET, 'u2/e1/b.csv', token)).toEqual({ valid: false, reason: 'invalid' });
    expect(verifyDownloadToken('another-secret', 'u2/e1/a.csv', token)).toEqual({
      valid: false,
      reason: 'invalid',
    });
    const afterExpiry = new Date(link.expiresAt.getTime() + 1000);
    expect(verifyDownloadToken(SECRET, 'u2/e1/a.csv', token, afterExpiry)).toEqual({
      valid: false,
      reason: 'expired',
    });
    expect(link.expiresAt.getTime() - Date.now()).toBeGreaterThan(58_000);
  });

  it('when the s3 driver presigns a link, then a plain GET downloads the file until it expires', async () => {
    const storage = drivers.s3();
    await storage.write('u2/e2/b.csv', Readable.from(['hello s3']));
    // Presigned expiry counts from the signing second (X-Amz-Date is whole seconds), so a 1 s link can leave
    // a window of a few milliseconds; 3 s leaves at least 2 s for the first GET on a loaded machine.
    const link = await storage.createDownloadLink('u2/e2/b.csv', { expiresInSeconds: 3, filename: 'b.csv' });
    const response = await fetch(link.url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('hello s3');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="b.csv"');
    await new Promise((resolve) => setTimeout(resolve, link.expiresAt.getTime() - Date.now() + 1100));
    expect((await fetch(link.url)).status).toBe(403);
  });

  it('when a killed writer left .partial files, then the sweep removes the stale ones and keeps fresh ones', async () => {
    const storage = drivers.fs();
    await storage.write('u4/e1/done.csv', Readable.from(['a']));
    const stale = join(fsRoot, 'u4', 'e1', 'done.csv.0a1b2c3d4e5f.partial');
    const fresh = join(fsRoot, 'u4', 'e2', 'live.csv.f5e4d3c2b1a0.partial');
    await mkdir(dirname(fresh), { recursive: true });
    await writeFile(stale, 'half');
    await writeFile(fresh, 'writing');
    const hourAgo = new Date(Date.now() - 3600_000);
    await utimes(stale, hourAgo, hourAgo);
    expect(await storage.sweepAbandonedWrites(new Date(Date.now() - 60_000))).toBe(1);
    expect(await readdir(join(fsRoot, 'u4', 'e1'))).toEqual(['done.csv']);
    expect(await readdir(join(fsRoot, 'u4', 'e2'))).toEqual(['live.csv.f5e4d3c2b1a0.partial']);
  });

  it('when the fs driver writes, then no temporary file is left behind', async () => {
    const storage = drivers.fs();
    await storage.write('u3/e1/clean.csv', Readable.from(['a']));
    expect(await readdir(join(fsRoot, 'u3', 'e1'))).toEqual(['clean.csv']);
  });
});
