import chardet from 'chardet';
import iconv from 'iconv-lite';
import { Readable } from 'node:stream';
import { ImportFileError } from './parsed-row';

/** How much of the file is looked at to detect its encoding, format and CSV delimiter. */
const SAMPLE_BYTES = 64 * 1024;

/** Encodings chardet names, as iconv-lite decodes them (ASCII is read as UTF-8, its superset). */
function iconvName(detected: string | null): string {
  const name = (detected ?? 'UTF-8').toLowerCase();
  if (name === 'ascii' || name === 'utf-8') return 'utf-8';
  return iconv.encodingExists(name) ? name : 'utf-8';
}

/** A statement as text: the encoding it was read in, the first characters, and every chunk in order. */
export interface DecodedText {
  encoding: string;
  sample: string;
  chunks: AsyncIterable<string>;
}

/**
 * Decodes a stored statement as a stream of text: in `encoding` when given, else as its byte order mark
 * says, else as chardet (a maintained port of Mozilla's detector) judges the first 64 KiB. Only that sample
 * is held; the rest streams through iconv-lite.
 */
export async function decodeText(body: Readable, encoding?: string): Promise<DecodedText> {
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const head: Buffer[] = [];
  let size = 0;
  let done = false;
  while (size < SAMPLE_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    head.push(next.value);
    size += next.value.length;
  }
  const sampleBytes = Buffer.concat(head);
  const chosen = encoding ?? iconvName(chardet.detect(sampleBytes.subarray(0, SAMPLE_BYTES)));
  if (!iconv.encodingExists(chosen)) throw new ImportFileError(undefined, 'encoding', `${chosen} is unknown`);
  const rest = async function* () {
    yield sampleBytes;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  };
  // iconv-lite drops a UTF-8 or UTF-16 byte order mark by default.
  const decoded = Readable.from(rest()).pipe(iconv.decodeStream(chosen));
  const sample = iconv.decode(sampleBytes.subarray(0, 8192), chosen);
  return { encoding: chosen, sample, chunks: decoded as AsyncIterable<string> };
}
