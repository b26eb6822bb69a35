import { inputError } from '@pfs/errors';
import sharp from 'sharp';

/** The longest side of `thumb.jpg` (the reference's 640 px thumbnails). */
export const THUMB_SIZE = 640;
/**
 * The most pixels an upload may decode to: 50 MP covers every phone and most cameras, and bounds what one
 * request can make libvips allocate (a small file can declare a huge canvas: a "decompression bomb").
 */
export const MAX_PIXELS = 50_000_000;

export interface ImageRenditions {
  /** The original, turned upright by its EXIF orientation, as JPEG without metadata. */
  full: Buffer;
  /** The same, fitted inside THUMB_SIZE × THUMB_SIZE (never enlarged). */
  thumb: Buffer;
}

const unreadable = () =>
  inputError([{ field: '(body)', error: 'must be a readable JPEG, PNG or WebP image' }]);

/**
 * Decodes an uploaded image once per rendition and writes both JPEGs. `rotate()` applies the EXIF
 * orientation, and sharp drops every metadata block (EXIF with its GPS position, XMP, ICC) unless asked to
 * keep it. Transparency is flattened onto white, as JPEG has none.
 */
export async function renderImage(bytes: Buffer): Promise<ImageRenditions> {
  const metadata = await sharp(bytes)
    .metadata()
    .catch(() => {
      throw unreadable();
    });
  if ((metadata.width ?? 0) * (metadata.height ?? 0) > MAX_PIXELS) {
    throw inputError([{ field: '(body)', error: `must be at most ${MAX_PIXELS / 1_000_000} megapixels` }]);
  }
  const upright = () =>
    sharp(bytes, { failOn: 'error', limitInputPixels: MAX_PIXELS })
      .rotate()
      .flatten({ background: '#ffffff' });
  try {
    const [full, thumb] = await Promise.all([
      upright().jpeg({ quality: 85, mozjpeg: true }).toBuffer(),
      upright()
        .resize(THUMB_SIZE, THUMB_SIZE, { fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: 80, mozjpeg: true })
        .toBuffer(),
    ]);
    return { full, thumb };
  } catch {
    // A truncated or corrupt file passes the signature check but fails to decode: the client's fault.
    throw unreadable();
  }
}
