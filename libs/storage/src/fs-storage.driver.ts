import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import { signDownloadToken } from './download-token';
import {
  assertSafeKey,
  linkExpiry,
  DownloadLink,
  DownloadLinkOptions,
  ObjectNotFoundError,
  ObjectStorage,
} from './object-storage';

export interface FsStorageOptions {
  /** Root folder; created on first write. */
  root: string;
  /** Public base of download links (EXPORT_URL); the API serves `<base>/<key>?token=…`. */
  publicBaseUrl: string;
  /** Secret that signs download tokens. */
  linkSecret: string;
}

/** The filesystem driver: objects are files under a root folder, written atomically (temp file + rename). */
export class FsStorage implements ObjectStorage {
  readonly driver = 'fs' as const;
  private readonly root: string;

  constructor(private readonly options: FsStorageOptions) {
    this.root = resolve(options.root);
  }

  private pathOf(key: string): string {
    assertSafeKey(key);
    return join(this.root, ...key.split('/'));
  }

  async write(key: string, body: Readable): Promise<{ size: number }> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    // A reader never sees a half-written file: the name appears only once the bytes are all there.
    const temporary = `${path}.${randomBytes(6).toString('hex')}.partial`;
    try {
      await pipeline(body, createWriteStream(temporary));
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return { size: (await stat(path)).size };
  }

  async read(key: string): Promise<Readable> {
    const path = this.pathOf(key);
    if ((await this.size(key)) === undefined) throw new ObjectNotFoundError(key);
    return createReadStream(path);
  }

  async size(key: string): Promise<number | undefined> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? info.size : undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async createDownloadLink(key: string, options: DownloadLinkOptions): Promise<DownloadLink> {
    assertSafeKey(key);
    const expiresAt = linkExpiry(options.expiresInSeconds);
    const token = signDownloadToken(this.options.linkSecret, key, expiresAt);
    return { url: `${this.options.publicBaseUrl}/${key}?token=${encodeURIComponent(token)}`, expiresAt };
  }
}
