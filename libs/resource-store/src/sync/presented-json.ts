/**
 * A presented page whose every item Postgres wrote (list-page.ts `listPresentedPage`), turned from its lines
 * (`<change_seq> <id> <modified_at as epoch ms> <item>`, one a line) into the page's JSON array as UTF-8 bytes,
 * the form it is hashed, sent and stored in.
 *
 * Why bytes, and in place: under 16 connections a cold page's strings (the lines split, their keys and items,
 * the items joined, that text flattened to be encoded: about 200 KB of young objects a page) were alive at most
 * scavenges, so V8 copied and promoted them, and the old space they filled made full collections frequent
 * (docs/bench.md, issue 13, session 8). Here the page text is encoded once and the items are moved left over
 * their keys inside that buffer (a line break becomes the comma), so a page leaves one short-lived string and
 * no other object on the JS heap. UTF-8 keeps every byte below 0x80 for its ASCII character, so line breaks,
 * spaces and digits are found by their bytes (no item holds a raw line break: JSON escapes it).
 */
export interface PresentedJson {
  /** `[item,item,…]`, the page's items in order (at most `perPage`). */
  json: Buffer;
  /** Whether the statement's one extra line (a next page) came. */
  hasMore: boolean;
  /** The last item's keyset position when a next page exists (its cursor starts after it). */
  last?: { changeSeq: string; id: string };
  /** The latest `modified_at` of the items. */
  newest?: Date;
}

const LINE_BREAK = 0x0a;
const SPACE = 0x20;
const MINUS = 0x2d;
const ZERO = 0x30;
const OPEN_OBJECT = 0x7b;
/** A line's start, id, modification, item and end. */
const SLOTS = 5;

/** Where each line's keys and item are, found before any byte moves (scratch, reused: the work is synchronous). */
let positions = new Int32Array(SLOTS * 256);

/**
 * The page's JSON array from its lines, or undefined when the line path must take it: an item Postgres did not
 * write (the caller presents it), or lines not in the page's order (newest change first, then highest id; the
 * statement does not sort, see list-page.ts `inPageOrder`).
 */
export function presentedJson(page: string | null, perPage: number): PresentedJson | undefined {
  if (page === null) return { json: Buffer.from('[]'), hasMore: false };
  const bytes = Buffer.from(page);
  const lines = countLines(bytes);
  if (positions.length < SLOTS * lines) positions = new Int32Array(SLOTS * lines);
  const at = positions;
  let newest = -1;
  for (let line = 0, start = 0; line < lines; line += 1) {
    const idAt = bytes.indexOf(SPACE, start) + 1;
    const modifiedAt = bytes.indexOf(SPACE, idAt) + 1;
    const itemAt = bytes.indexOf(SPACE, modifiedAt) + 1;
    if (bytes[itemAt] !== OPEN_OBJECT) return undefined;
    if (line > 0 && !follows(bytes, at, line, start, idAt, modifiedAt)) return undefined;
    const end = line + 1 < lines ? bytes.indexOf(LINE_BREAK, itemAt) : bytes.length;
    const slot = SLOTS * line;
    at[slot] = start;
    at[slot + 1] = idAt;
    at[slot + 2] = modifiedAt;
    at[slot + 3] = itemAt;
    at[slot + 4] = end;
    if (line < perPage && (newest === -1 || laterThan(bytes, modifiedAt, itemAt - 1, at, newest)))
      newest = line;
    start = end + 1;
  }
  const count = Math.min(lines, perPage);
  const hasMore = lines > perPage;
  const lastSlot = SLOTS * (count - 1);
  const last = hasMore
    ? {
        changeSeq: bytes.toString('latin1', at[lastSlot], at[lastSlot + 1] - 1),
        id: bytes.toString('latin1', at[lastSlot + 1], at[lastSlot + 2] - 1),
      }
    : undefined;
  const newestAt = SLOTS * newest;
  const newestDate = count ? new Date(integerAt(bytes, at[newestAt + 2], at[newestAt + 3] - 1)) : undefined;
  // Items moved left, each over its own keys: a line's keys are at least 6 bytes, more than the `[`, so no item
  // is overwritten before it is moved (copyWithin is memmove: the overlap of an item with its old place is safe;
  // Buffer#copy would make a view object for each item).
  let out = 0;
  for (let line = 0; line < count; line += 1) {
    bytes[out] = line === 0 ? 0x5b : 0x2c;
    const item = at[SLOTS * line + 3];
    const end = at[SLOTS * line + 4];
    bytes.copyWithin(out + 1, item, end);
    out += 1 + end - item;
  }
  bytes[out] = 0x5d;
  return { json: bytes.subarray(0, out + 1), hasMore, last, newest: newestDate };
}

function countLines(bytes: Buffer): number {
  let lines = 1;
  for (let at = bytes.indexOf(LINE_BREAK); at !== -1; at = bytes.indexOf(LINE_BREAK, at + 1)) lines += 1;
  return lines;
}

/**
 * Whether the line at `start` (its id at `idAt`, its modification at `modifiedAt`) comes after the line before
 * it (its positions at `at[SLOTS * (line - 1)]`…) in the page's order: a lower change sequence, or the same and a lower id. Keys are
 * non-negative integers as decimal text without leading zeros: the shorter is the lower, else the first byte
 * that differs decides.
 */
function follows(
  bytes: Buffer,
  at: Int32Array,
  line: number,
  start: number,
  idAt: number,
  modifiedAt: number,
): boolean {
  const before = SLOTS * (line - 1);
  const bySeq = compareDigits(bytes, at[before], at[before + 1] - 1, start, idAt - 1);
  if (bySeq !== 0) return bySeq > 0;
  return compareDigits(bytes, at[before + 1], at[before + 2] - 1, idAt, modifiedAt - 1) > 0;
}

/** Compares two runs of decimal digits in `bytes` ([aFrom, aTo) and [bFrom, bTo)) as the numbers they write. */
function compareDigits(bytes: Buffer, aFrom: number, aTo: number, bFrom: number, bTo: number): number {
  if (aTo - aFrom !== bTo - bFrom) return aTo - aFrom - (bTo - bFrom);
  for (let a = aFrom, b = bFrom; a < aTo; a += 1, b += 1) {
    if (bytes[a] !== bytes[b]) return bytes[a] - bytes[b];
  }
  return 0;
}

/** Whether the modification time at [from, to) is later than line `line`'s (its positions in `at`). */
function laterThan(bytes: Buffer, from: number, to: number, at: Int32Array, line: number): boolean {
  return compareIntegers(bytes, from, to, at[SLOTS * line + 2], at[SLOTS * line + 3] - 1) > 0;
}

/**
 * Compares two integers written in decimal (an optional minus, no leading zeros) in `bytes` as numbers, without
 * reading them: a page's 200 modification times, of which only the newest is read (`integerAt`).
 */
function compareIntegers(bytes: Buffer, aFrom: number, aTo: number, bFrom: number, bTo: number): number {
  const aNegative = bytes[aFrom] === MINUS;
  const bNegative = bytes[bFrom] === MINUS;
  if (aNegative !== bNegative) return aNegative ? -1 : 1;
  const byDigits = compareDigits(bytes, aFrom, aTo, bFrom, bTo);
  return aNegative ? -byDigits : byDigits;
}

/** The integer written in decimal (an optional minus) in `bytes` [from, to): epoch milliseconds, within 2^53. */
function integerAt(bytes: Buffer, from: number, to: number): number {
  const negative = bytes[from] === MINUS;
  let value = 0;
  for (let at = negative ? from + 1 : from; at < to; at += 1) value = value * 10 + (bytes[at] - ZERO);
  return negative ? -value : value;
}
