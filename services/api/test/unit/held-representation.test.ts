import {
  decodeHeldRepresentation,
  decodeRepresentation,
  encodeRepresentation,
} from '../../src/modules/me/user-profile-cache';

describe('decodeHeldRepresentation', () => {
  const prepared = {
    etag: '"abc"',
    lastModified: new Date('2026-11-25T01:02:03.000Z'),
    body: '{"first_name":"Zoë"}',
  };

  it('when the same cached value comes again, then it is the same decoding, with its UTF-8 bytes', () => {
    const raw = encodeRepresentation(prepared);
    const first = decodeHeldRepresentation(raw)!;
    expect(first).toEqual({ ...decodeRepresentation(raw), bytes: Buffer.from(prepared.body) });
    expect(first.bytes!.toString('utf8')).toBe(prepared.body);
    expect(decodeHeldRepresentation(`${raw}`)).toBe(first);
  });

  it('when the cached value changes, then the new one is decoded, not the one kept', () => {
    const changed = decodeHeldRepresentation(
      encodeRepresentation({ ...prepared, etag: '"def"', body: '{}' }),
    )!;
    expect(changed.etag).toBe('"def"');
    expect(changed.bytes!.toString('utf8')).toBe('{}');
  });

  it('when the value is malformed, then nothing is decoded', () => {
    expect(decodeHeldRepresentation('no newline')).toBeUndefined();
  });
});
