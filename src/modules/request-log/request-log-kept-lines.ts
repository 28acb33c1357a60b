import {
  lineText,
  newSegment,
  type RequestLogRow,
  SEGMENT_SPAN_MS,
  type Segment,
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
     * never holds a place for a line that is not here.
     */
    add(r: RequestLogRow, admitted: () => boolean = () => true) {
      const line = lineText(r.at, r.method, r.path, r.status, r.latency_ms, r.request_id);
      const key = keyOf(r.account_id, r.environment, r.product, r.client_id);
      if (!admitted()) return;
      // UTF-8 takes at most three bytes for each UTF-16 unit
      room(HEADER + line.length * 3);
      const length = bytes.write(line, end + HEADER, 'utf8');
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
        if (
          cut &&
          (at - cut.segment.first_at > SEGMENT_SPAN_MS || cut.segment.last_at - at > SEGMENT_SPAN_MS)
        ) {
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
        const s = cut.segment;
        if (at < s.first_at) s.first_at = at;
        if (at > s.last_at) s.last_at = at;
        s.count++;
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

export type KeptLines = ReturnType<typeof createKeptLines>;
