import { sniffFileType } from './sniff-file-type';

const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))),
  );

describe('sniffFileType', () => {
  it('when the bytes start with a known signature, then its type, whatever the rest', () => {
    expect(sniffFileType(bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF'))).toBe('image/jpeg');
    expect(sniffFileType(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a], 'IHDR'))).toBe('image/png');
    expect(sniffFileType(bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '))).toBe('image/webp');
    expect(sniffFileType(bytes('%PDF-1.7\n'))).toBe('application/pdf');
  });

  it('when the bytes are a HEIF or AVIF container, then image/heic (so the refusal can say why)', () => {
    expect(sniffFileType(bytes([0, 0, 0, 24], 'ftypheic', [0, 0, 0, 0]))).toBe('image/heic');
    expect(sniffFileType(bytes([0, 0, 0, 24], 'ftypmif1'))).toBe('image/heic');
    expect(sniffFileType(bytes([0, 0, 0, 24], 'ftypisom'))).toBeUndefined();
  });

  it('when the bytes are short, another format, or a near miss, then undefined', () => {
    expect(sniffFileType(Buffer.alloc(0))).toBeUndefined();
    expect(sniffFileType(bytes([0xff, 0xd8]))).toBeUndefined();
    expect(sniffFileType(bytes('GIF89a'))).toBeUndefined();
    expect(sniffFileType(bytes('RIFF', [1, 2, 3, 4], 'WAVEfmt '))).toBeUndefined();
    expect(sniffFileType(bytes(' %PDF-1.4'))).toBeUndefined();
    expect(sniffFileType(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
  });
});
