import archiver from 'archiver';
import type { ObjectStorage } from '@pfs/storage';
import { PassThrough, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { CONTENT_TYPES } from './content-types';

/** One file an export produces; `write` streams it into `out` and ends `out`. */
export interface ExportFile {
  filename: string;
  contentType: string;
  write(out: Writable): Promise<void>;
}

export interface StoredExport {
  key: string;
  filename: string;
  size: number;
  contentType: string;
}

/** Runs a producer into a storage write, so the bytes go straight from the formatter to the driver. */
async function writeThrough(
  storage: ObjectStorage,
  key: string,
  contentType: string,
  produce: (out: Writable) => Promise<void>,
): Promise<number> {
  const pass = new PassThrough();
  const storing = storage.write(key, pass, { contentType });
  try {
    await produce(pass);
  } catch (error) {
    pass.destroy(error as Error);
    await storing.catch(() => undefined);
    throw error;
  }
  return (await storing).size;
}

/** Zips files one after another: each is produced only when the archive is ready for it. */
function zipFiles(files: ExportFile[]) {
  return async (out: Writable) => {
    const archive = archiver('zip', { zlib: { level: 6 } });
    const failed = new Promise<never>((_, reject) => archive.on('error', reject));
    failed.catch(() => undefined);
    archive.pipe(out);
    for (const file of files) {
      const entry = new PassThrough();
      archive.append(entry, { name: file.filename });
      await Promise.race([file.write(entry), failed]);
    }
    await Promise.race([archive.finalize(), failed]);
    await finished(out);
  };
}

/**
 * Stores an export's files under `keyPrefix`: a single file as it is, several as one zip named
 * `bundleName`. Nothing is buffered whole: formatter → (zip) → storage driver.
 */
export async function storeExportFiles(
  storage: ObjectStorage,
  keyPrefix: string,
  files: ExportFile[],
  bundleName: string,
): Promise<StoredExport> {
  if (files.length === 1) {
    const [file] = files;
    const key = `${keyPrefix}/${file.filename}`;
    const size = await writeThrough(storage, key, file.contentType, (out) => file.write(out));
    return { key, filename: file.filename, size, contentType: file.contentType };
  }
  const key = `${keyPrefix}/${bundleName}`;
  const size = await writeThrough(storage, key, CONTENT_TYPES.zip, zipFiles(files));
  return { key, filename: bundleName, size, contentType: CONTENT_TYPES.zip };
}
