/** The file types an upload may be, named by the media type we sniff from their first bytes. */
export const UPLOAD_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];

const startsWith = (bytes: Buffer, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** HEIF brands (ISO BMFF `ftyp`): recognised only to say they are not supported. */
const HEIF_BRANDS = ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1', 'avif'];

/**
 * What the bytes are, from their signature ("magic number"), never from the client's Content-Type or
 * file name: JPEG `FF D8 FF`, PNG's 8-byte signature, WebP `RIFF….WEBP`, PDF `%PDF-`. `image/heic` means
 * a HEIF/AVIF container (which the prebuilt libvips cannot decode); undefined means none of these.
 */
export function sniffFileType(bytes: Buffer): UploadType | 'image/heic' | undefined {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(bytes, ascii('%PDF-'))) return 'application/pdf';
  if (startsWith(bytes, ascii('ftyp'), 4) && HEIF_BRANDS.includes(bytes.subarray(8, 12).toString('latin1')))
    return 'image/heic';
  return undefined;
}

export function isUploadType(type: string): type is UploadType {
  return (UPLOAD_TYPES as readonly string[]).includes(type);
}
