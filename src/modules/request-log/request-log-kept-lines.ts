import {
  countLine,
  lineText,
  newSegment,
  type RequestLogRow,
  type Segment,
  spans,
} from './request-log-repository.ts';

/**
 * The successful requests that created nothing (nearly every line: the reads) from the moment they
 * are answered until their batch is written, kept as bytes in one Buffer, outside V8's heap. Kept as
 * strings (one per line, `readOf`), they outlived a young collection or two and were moved into the
 * old generation, whose full collections then freed them: ~130 bytes promoted per read, a few full
 * collections in every 5 s of reads, and the batch parsed each line again to find its segment
 * (bench/README.md, "Lines kept outside the heap"). The bytes of a Buffer are neither scanned nor
 * moved, and each line sits beside the number of its segment's key, so a batch's segments are cut
 * from the bytes as they lie.
 *
 * A line is the record `[key u32][length u32][at f64][line, UTF-8]`, in the order the requests were
 * answered; `take(n)` cuts the first n into segments (one per key, a minute at most, as `segmentsOf`),
 * whose text goes to the database as bytes, a binary text parameter (db/database.ts: both kinds take one).
 *
 * @example
 * const kept = createKeptLines();
 * kept.add(rowOf(entry));      // the request path: its masked line encoded into the Buffer
 * const segments = kept.take(2000);   // the batch: its segments, the bytes given back
 */
const HEADER = 16;
/** Keys of clients no line waits for are forgotten when this many were seen and nothing waits. */
const KEYS_KEPT = 1000;

interface Key {
  accountId: number;
  environment: string;
  product: string;
  clientId: string;
}

export function createKeptLines(initialBytes = 1 << 20) {
  let bytes = Buffer.allocUnsafeSlow(initialBytes);
  /** The first record not taken, and the end of the last one. */
  let start = 0;
  let end = 0;
  let waiting = 0;
  // Found by the client's id first: the same string object in every request of a kept token, whose
  // hash V8 keeps, so a look-up builds no key string.
  let keysByClient = new Map<string, number[]>();
  let keys: Key[] = [];

  function keyOf(accountId: number, environment: string, product: string, clientId: string): number {
    let ids = keysByClient.get(clientId);
    if (!ids) {
      ids = [];
      keysByClient.set(clientId, ids);
    }
    for (const id of ids) {
      const k = keys[id];
      if (k.accountId === accountId && k.environment === environment && k.product === product) return id;
    }
    keys.push({ accountId, environment, product, clientId });
    ids.push(keys.length - 1);
    return keys.length - 1;
  }

  /** Room for `size` more bytes at the end: the taken records' bytes reused first, else a larger Buffer. */
  function room(size: number) {
    if (end + size <= bytes.length) return;
    if (start > 0) {
      bytes.copy(bytes, 0, start, end);
      end -= start;
      start = 0;
    }
    if (end + size <= bytes.length) return;
    const larger = Buffer.allocUnsafeSlow(Math.max(bytes.length * 2, end + size));
    bytes.copy(larger, 0, 0, end);
    bytes = larger;
  }

  return {
    /** How many lines wait. */
    get size() {
      return waiting;
    },

    /**
     * Keeps a successful request's line, from its row as stored (`rowOf`: masked), if `admitted` says
     * so once the line is made: a line that cannot be made is neither kept nor admitted, so the buffer
     * never holds a place for a line that is not here. A plain line's bytes are written past the last
     * record before `admitted` is asked, so `admitted` must not add or take lines itself.
     */
    add(r: RequestLogRow, admitted: () => boolean = () => true) {
      const key = keyOf(r.account_id, r.environment, r.product, r.client_id);
      // Encoded straight into the Buffer where its text is plain (nearly always); else made as
      // lineText makes it, then encoded. Either way the line is made before its place is asked for.
      room(HEADER + PLAIN_MAX + r.method.length + r.path.length + r.request_id.length);
      let length = encodePlainLine(bytes, end + HEADER, r);
      let line: string | null = null;
      if (length < 0) line = lineText(r.at, r.method, r.path, r.status, r.latency_ms, r.request_id);
      if (!admitted()) return;
      if (line !== null) {
        // UTF-8 takes at most three bytes for each UTF-16 unit
        room(HEADER + line.length * 3);
        length = bytes.write(line, end + HEADER, 'utf8');
      }
      bytes.writeUInt32LE(key, end);
      bytes.writeUInt32LE(length, end + 4);
      bytes.writeDoubleLE(r.at, end + 8);
      end += HEADER + length;
      waiting++;
    },

    /**
     * The first `n` lines waiting (all, if fewer wait), as segments whose lines are bytes
     * (`Segment.bytes`); the bytes they were cut from are given back.
     */
    take(n: number): Segment[] {
      const open = new Map<number, { segment: Segment; ranges: number[]; size: number }>();
      const done: Array<{ segment: Segment; ranges: number[]; size: number }> = [];
      for (let i = 0; i < n && waiting > 0; i++, waiting--) {
        const id = bytes.readUInt32LE(start);
        const length = bytes.readUInt32LE(start + 4);
        const at = bytes.readDoubleLE(start + 8);
        const from = start + HEADER;
        start = from + length;
        let cut = open.get(id);
        if (cut && !spans(cut.segment, at)) {
          done.push(cut);
          cut = undefined;
        }
        if (!cut) {
          const k = keys[id];
          cut = {
            segment: newSegment(k.accountId, k.environment, k.product, k.clientId, at),
            ranges: [],
            size: 0,
          };
          open.set(id, cut);
        }
        countLine(cut.segment, at);
        cut.ranges.push(from, start);
        cut.size += length + 1;
      }
      // Each segment's lines copied side by side, comma-separated, in brackets: the text of the
      // segment's entries, as bytes. No string is made of them, neither per line nor per segment (a
      // segment's ~180 KB string went to the old generation whole, and the driver encoded it again).
      const segments = [...done, ...open.values()].map(({ segment, ranges, size }) => {
        const text = Buffer.allocUnsafe(size + 1);
        text[0] = 0x5b;
        let at = 1;
        for (let r = 0; r < ranges.length; r += 2) {
          if (r > 0) text[at++] = 0x2c;
          at += bytes.copy(text, at, ranges[r], ranges[r + 1]);
        }
        text[at] = 0x5d;
        segment.bytes = text;
        return segment;
      });
      if (waiting === 0) {
        start = end = 0;
        // a burst of long lines (the buffer's bound is in lines, not bytes) grew it: given back
        if (bytes.length > initialBytes * 8) bytes = Buffer.allocUnsafeSlow(initialBytes);
        if (keys.length > KEYS_KEPT) {
          keysByClient = new Map();
          keys = [];
        }
      }
      return segments;
    },
  };
}

/**
 * At most the bytes a plain line takes beyond its method, path and request id: brackets, commas,
 * quotes and its three numbers at their widest (49 in fact).
 */
const PLAIN_MAX = 64;
/** Whole numbers below this (exclusive) are exact doubles, and their digits are computed exactly. */
const LARGEST_PLAIN = 2 ** 53;
/**
 * Latencies below this many hundredths (10^13 ms; exclusive): below 2^46 doubles lie closer together
 * than 0.01, so a latency's shortest decimal form is its two decimals. Above it JavaScript may write
 * a shorter one (2^46 + 0.09375 is written 70368744177664.1), and the line is left to lineText.
 */
const LARGEST_HUNDREDTHS = 1e15;

/**
 * Writes the line `lineText` makes of the row, byte for byte, without making it: the row's strings
 * are written as they are when each is plain (printable ASCII, no quote, no backslash: what JSON
 * writes unchanged), `at` is a whole number of ms (rowOf) and the latency is in hundredths (rowOf),
 * whose shortest decimal form is written from the integer. Returns the bytes written, or -1 when the
 * line is not plain (the caller makes it with lineText). lineText's JSON.stringify of a new array,
 * and the string it made, cost a kept read 6 µs on a slow machine (bench/README.md, "A read's line
 * written as bytes").
 */
export function encodePlainLine(b: Buffer, offset: number, r: RequestLogRow): number {
  const hundredths = Math.round(r.latency_ms * 100);
  if (
    !(r.at >= 0 && r.at < LARGEST_PLAIN && Number.isInteger(r.at)) ||
    !(hundredths >= 0 && hundredths < LARGEST_HUNDREDTHS && hundredths / 100 === r.latency_ms) ||
    !(r.status >= 0 && r.status < 1000 && Number.isInteger(r.status))
  )
    return -1;
  let o = offset;
  b[o++] = 0x5b; // [
  o = writeInteger(b, o, r.at);
  b[o++] = 0x2c;
  o = writePlainString(b, o, r.method);
  if (o < 0) return -1;
  b[o++] = 0x2c;
  o = writePlainString(b, o, r.path);
  if (o < 0) return -1;
  b[o++] = 0x2c;
  o = writeInteger(b, o, r.status);
  b[o++] = 0x2c;
  // what String(hundredths / 100) gives: the whole part, then at most two digits without a trailing 0
  const cents = hundredths % 100;
  o = writeInteger(b, o, (hundredths - cents) / 100);
  if (cents !== 0) {
    b[o++] = 0x2e; // .
    b[o++] = 0x30 + Math.floor(cents / 10);
    if (cents % 10 !== 0) b[o++] = 0x30 + (cents % 10);
  }
  b[o++] = 0x2c;
  o = writePlainString(b, o, r.request_id);
  if (o < 0) return -1;
  b[o++] = 0x5d; // ]
  return o - offset;
}

/** A whole number below 2^53, in decimal digits; returns where it ends. */
function writeInteger(b: Buffer, offset: number, n: number): number {
  let digits = 1;
  for (let p = 10; p <= n; p *= 10) digits++;
  const end = offset + digits;
  let x = n;
  for (let i = end - 1; i >= offset; i--) {
    // exact below 2^53: x / 10 is never rounded up to the next whole number
    const q = Math.floor(x / 10);
    b[i] = 0x30 + (x - q * 10);
    x = q;
  }
  return end;
}

/** A string in quotes if every character is printable ASCII other than `"` and `\`; else -1. */
function writePlainString(b: Buffer, offset: number, s: string): number {
  let o = offset;
  b[o++] = 0x22;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return -1;
    b[o++] = c;
  }
  b[o++] = 0x22;
  return o;
}

export type KeptLines = ReturnType<typeof createKeptLines>;
