import type { ImageRecord, ImageType } from '@pfs/resource-store';

/**
 * The files stored per image, each served at `path + <name>`: an image has `thumb.jpg` (fits 640 px) and
 * `full.jpg` (the original re-encoded as JPEG); a PDF has only `document.pdf`, the bytes as uploaded.
 */
export const IMAGE_FILES: Record<ImageType, readonly string[]> = {
  image: ['thumb.jpg', 'full.jpg'],
  pdf: ['document.pdf'],
};

export const FILE_CONTENT_TYPES: Record<string, string> = {
  'thumb.jpg': 'image/jpeg',
  'full.jpg': 'image/jpeg',
  'document.pdf': 'application/pdf',
};

/** The storage key of one file of an image. */
export function fileKey(storagePrefix: string, name: string): string {
  return `${storagePrefix}/${name}`;
}

/** Every storage key of an image, for removing them. */
export function fileKeysOf(image: Pick<ImageRecord, 'type' | 'storagePrefix'>): string[] {
  return IMAGE_FILES[image.type].map((name) => fileKey(image.storagePrefix, name));
}

/** The public URL base of an image's files: clients append a file name (`thumb.jpg`). */
export function imagePath(baseUrl: string, id: string): string {
  return `${baseUrl}/images/${id}/`;
}
