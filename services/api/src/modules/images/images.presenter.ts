import { compact, formatModified, formatTimestamp } from '@pfs/resource-api';
import type { ImageRecord } from '@pfs/resource-store';
import { imagePath } from './image-files';

/** What every representation of an image begins with: its id, path, name, type and status. */
const imageHead = (image: ImageRecord, baseUrl: string) => ({
  id: image.id,
  path: imagePath(baseUrl, image.id),
  filename: image.filename,
  type: image.type,
  status: image.status,
});

/** The `/images` representation. */
export function presentImage(image: ImageRecord, baseUrl: string): Record<string, unknown> {
  return compact({
    ...imageHead(image, baseUrl),
    size: image.size,
    created: formatTimestamp(image.createdAt),
    modified: formatModified(image.modifiedAt),
    deleted: image.deleted || undefined,
    extra: image.extra,
  });
}

/** An image as an entry shows it (`entry.images[]`), as the reference does. */
export function presentEntryImage(image: ImageRecord, baseUrl: string): Record<string, unknown> {
  return compact(imageHead(image, baseUrl));
}
