/**
 * Card codes arrive as JSON numbers (`"cardNumber": 12345678901234567890`) that can exceed 2^53, so
 * `JSON.parse` would round them. `quoteNumbersOf` rewrites the raw JSON text so that the numbers of
 * the named keys become strings holding the exact digits, before it is parsed. It walks the text as
 * JSON tokens (strings with their escapes), so a key name inside a string value is never touched.
 *
 * @example
 * quoteNumbersOf('[{"cardNumber":12345678901234567890,"pinCode":1234}]', ['cardNumber', 'pinCode'])
 * // '[{"cardNumber":"12345678901234567890","pinCode":"1234"}]'
 */
export function quoteNumbersOf(json: string, keys: readonly string[]): string {
  const wanted = new Set(keys);
  let out = '';
  let copiedUpTo = 0;
  let lastString: string | null = null; // the last string token, while it may still be a key
  let afterColonOfWanted = false;
  let i = 0;
  while (i < json.length) {
    const c = json[i]!;
    if (c === '"') {
      const end = endOfString(json, i);
      lastString = json.slice(i, end + 1);
      afterColonOfWanted = false;
      i = end + 1;
      continue;
    }
    if (c === ':') {
      afterColonOfWanted = lastString !== null && wanted.has(JSON.parse(lastString) as string);
      lastString = null;
      i++;
      continue;
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      let end = i + 1;
      while (end < json.length && /[0-9eE.+-]/.test(json[end]!)) end++;
      if (afterColonOfWanted) {
        out += json.slice(copiedUpTo, i) + '"' + json.slice(i, end) + '"';
        copiedUpTo = end;
      }
      afterColonOfWanted = false;
      lastString = null;
      i = end;
      continue;
    }
    if (c !== ' ' && c !== '\n' && c !== '\r' && c !== '\t') {
      afterColonOfWanted = false;
      lastString = null;
    }
    i++;
  }
  return out + json.slice(copiedUpTo);
}

/** Index of the closing quote of the string starting at `start`. */
function endOfString(json: string, start: number): number {
  let i = start + 1;
  while (i < json.length) {
    const c = json[i];
    if (c === '\\') i += 2;
    else if (c === '"') return i;
    else i++;
  }
  throw new SyntaxError('Unterminated string in JSON');
}

/**
 * Parses JSON text with the numbers of `keys` kept as their exact digits (strings).
 *
 * @example
 * parseWithExactNumbers('{"pinCode":98765432109876543210}', ['pinCode']).pinCode // '98765432109876543210'
 */
export function parseWithExactNumbers<T = unknown>(json: string, keys: readonly string[]): T {
  return JSON.parse(quoteNumbersOf(json, keys)) as T;
}
