import { Transform } from 'node:stream';

/**
 * Gathers the many small chunks formatters emit (one per CSV row) into ~64 KiB buffers, so the zip,
 * the storage driver and the kernel see a few large writes instead of a million tiny ones.
 */
export function coalesceChunks(size = 64 * 1024): Transform {
  let pending: Buffer[] = [];
  let length = 0;
  return new Transform({
    transform(chunk: Buffer | string, _encoding, callback) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      pending.push(buffer);
      length += buffer.length;
      if (length >= size) {
        const out = Buffer.concat(pending, length);
        pending = [];
        length = 0;
        callback(null, out);
      } else {
        callback();
      }
    },
    flush(callback) {
      callback(null, length ? Buffer.concat(pending, length) : undefined);
    },
  });
}
