import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
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
  OpenedObject,
} from './object-storage';

const PARTIAL_SUFFIX = '.partial';

const isMissing = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR';
};

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
    const temporary = `${path}.${randomBytes(6).toString('hex')}${PARTIAL_SUFFIX}`;
    try {
      await pipeline(body, createWriteStream(temporary));
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return { size: (await stat(path)).size };
  }

  async read(key: string): Promise<OpenedObject> {
    const path = this.pathOf(key);
    // Opened here, not lazily by the stream: once the descriptor is held, an unlink cannot fail the read.
    const handle = await open(path, 'r').catch((error: unknown) => {
      throw isMissing(error) ? new ObjectNotFoundError(key) : error;
    });
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new ObjectNotFoundError(key);
      return { body: handle.createReadStream(), size: info.size };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async size(key: string): Promise<number | undefined> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? info.size : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async sweepAbandonedWrites(olderThan: Date): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.root, { recursive: true });
    } catch (error) {
      if (isMissing(error)) return 0;
      throw error;
    }
    let removed = 0;
    for (const name of names) {
      if (!name.endsWith(PARTIAL_SUFFIX)) continue;
      const path = join(this.root, name);
      const info = await stat(path).catch(() => undefined);
      if (!info?.isFile() || info.mtime >= olderThan) continue;
      await rm(path, { force: true });
      removed += 1;
    }
    return removed;
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<number> {
    const folder = this.pathOf(prefix);
    const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch((error) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    });
    await rm(folder, { recursive: true, force: true });
    return entries.filter((entry) => entry.isFile()).length;
  }

  async createDownloadLink(key: string, options: DownloadLinkOptions): Promise<DownloadLink> {
    assertSafeKey(key);
    const expiresAt = linkExpiry(options.expiresInSeconds);
    const token = signDownloadToken(this.options.linkSecret, key, expiresAt);
    return { url: `${this.options.publicBaseUrl}/${key}?token=${encodeURIComponent(token)}`, expiresAt };
  }
}
