/**
 * JSON lets an object name a key twice and JSON.parse keeps the last one, so `{"quantity":1,
 * "quantity":3}` would be read as 3 while a proxy, a log or a reviewer reads 1. A money API must not
 * guess: a body with a repeated key is refused (400, naming the field). One pass over the text, no
 * allocation but a Set per object; run only on a text JSON.parse accepted (so it is well formed).
 *
 * @example
 * repeatedKey('{"quantity":1,"quantity":3}'); // 'quantity'
 * repeatedKey('{"a":{"b":1,"b":2}}');         // 'a.b'
 * repeatedKey('[{"id":1},{"id":1}]');         // null (two objects, one key each)
 */
import { AppError } from '../errors/error-codes.ts';

interface Frame {
  parent: Frame | null;
  /** The key or index this container has in its parent. */
  at: string | number | null;
  /** An object's keys so far; null for an array. */
  keys: Set<string> | null;
  /** In an object: the next string is a key. */
  expectKey: boolean;
  /** An object's last key, or an array's current index. */
  current: string | number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

export function repeatedKey(text: string): string | null {
  let top = null as Frame | null;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let j = i + 1;
      let escaped = false;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === QUOTE) break;
        if (d === BACKSLASH) {
          escaped = true;
          j += 2;
        } else j++;
      }
      if (top?.keys && top.expectKey) {
        // "quan\u0074ity" is "quantity": compare keys as JSON reads them.
        const key = escaped ? (JSON.parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j);
        if (top.keys.has(key)) return pathOf(top, key);
        top.keys.add(key);
        top.current = key;
        top.expectKey = false;
      }
      i = j;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      const object = c === OPEN_OBJECT;
      top = {
        parent: top,
        at: top ? top.current : null,
        keys: object ? new Set() : null,
        expectKey: object,
        current: 0,
      };
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      top = top?.parent ?? null;
    } else if (c === COMMA && top) {
      if (top.keys) top.expectKey = true;
      else top.current = (top.current as number) + 1;
    }
  }
  return null;
}

/** `a.b[2].c`: where the repeated key is, for the error's field. */
function pathOf(frame: Frame, key: string): string {
  let path = key;
  for (let f: Frame | null = frame; f?.parent; f = f.parent) {
    path = typeof f.at === 'number' ? `[${f.at}].${path}` : `${f.at}.${path}`;
  }
  return path.replace(/\.\[/g, '[');
}

/** The 400 for a body naming `field` twice (on the token endpoint: OAuth's invalid_request). */
export function repeatedKeyError(field: string): AppError {
  return new AppError('INVALID_REQUEST', `The body names the field ${field} more than once`, [
    { field, issue: 'appears more than once; send each field once' },
  ]);
}
