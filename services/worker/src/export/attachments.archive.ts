import archiver from 'archiver';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { ArchivedImage, UserArchiveRepository } from '@pfs/resource-store';
import { ObjectNotFoundError, type ObjectStorage } from '@pfs/storage';

/** The stored file an archive carries per image: the full-size JPEG, or the PDF as uploaded. */
const STORED_FILE = { image: 'full.jpg', pdf: 'document.pdf' } as const;

/** `<id>-<name>.<ext>`: unique in the archive, and safe as a path whatever the user named the file. */
function archiveName(row: ArchivedImage): string {
  const extension = row.type === 'pdf' ? 'pdf' : 'jpg';
  const base = (row.filename ?? '')
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/[^A-Za-z0-9._ -]+/g, '_')
    .replace(/^[.\s]+/, '')
    .slice(0, 80);
  return `${row.id}-${base || row.type}.${extension}`;
}

/**
 * The `attachments` export: every live image of the user in a zip (`images/<id>-<name>.jpg|pdf`) and
 * `index.json` listing each with the entries that hold it. Images stream one at a time from storage into
 * the zip (the next is opened only when the previous is written), so memory stays flat at any count.
 */
export async function writeAttachmentsArchive(
  archives: UserArchiveRepository,
  storage: ObjectStorage,
  userId: string,
  out: Writable,
): Promise<void> {
  const archive = archiver('zip', { store: true });
  archive.pipe(out);
  const index: Array<Record<string, unknown>> = [];
  for await (const image of archives.images(userId)) {
    let name: string | null = `images/${archiveName(image)}`;
    let skipped: string | undefined;
    try {
      // Opened before it is queued in the zip: an image deleted while the export runs is either streamed
      // whole (already open) or found missing here, never an unhandled error on a queued stream.
      const opened = await storage.read(`${image.storage_prefix}/${STORED_FILE[image.type]}`);
      opened.body.once('error', (error) => archive.emit('error', error));
      archive.append(opened.body, { name });
      await once(archive, 'entry');
    } catch (error) {
      // A file gone from storage (deleted meanwhile, or an operator's cleanup) is listed as skipped.
      if (!(error instanceof ObjectNotFoundError)) throw error;
      name = null;
      skipped = 'The file was no longer in storage when the export ran.';
    }
    index.push({
      id: image.id,
      type: image.type,
      filename: image.filename,
      file: name,
      entries: image.entries ?? [],
      ...(skipped && { skipped }),
    });
  }
  archive.append(JSON.stringify({ images: index }, null, 2), { name: 'index.json' });
  await archive.finalize();
  await finished(out);
}
