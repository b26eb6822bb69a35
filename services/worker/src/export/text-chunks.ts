const CHUNK_BYTES = 64 * 1024;

/**
 * Gathers many short strings (one per row) as UTF-8 into 64 KiB Buffers as they come. Each row's string then
 * dies young; concatenated into one string per batch instead, the thousands of pieces of the growing rope
 * survived every scavenge of the worker's 4 MB young generation and were copied each time (docs/bench.md,
 * issue 13 point 6: most of the GC of the CSV and XLSX exports).
 */
export class TextChunks {
  private buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  private length = 0;
  private done: Buffer[] = [];

  add(text: string): void {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8, so a string this short always fits.
    if (this.length + text.length * 3 > this.buffer.length) {
      this.close();
      if (text.length * 3 > this.buffer.length) {
        this.done.push(Buffer.from(text, 'utf8'));
        return;
      }
    }
    this.length += this.buffer.write(text, this.length, 'utf8');
  }

  /** The Buffers filled so far (the last one partly); the next `add` starts a new one. */
  take(): Buffer[] {
    this.close();
    const done = this.done;
    this.done = [];
    return done;
  }

  private close(): void {
    if (!this.length) return;
    this.done.push(this.buffer.subarray(0, this.length));
    this.buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    this.length = 0;
  }
}
