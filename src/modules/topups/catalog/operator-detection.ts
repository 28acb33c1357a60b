/**
 * Operator auto-detection: a longest-prefix matcher over the number ranges of
 * `data/operators/prefixes.json` (phone numbers are normalised first by `lib/phone.ts`).
 * Pure functions: no I/O, no database.
 */

/** Number ranges per country: ISO alpha-2 → list of [national number prefix, operatorId]. */
export type PrefixTable = Record<string, Array<[string, number]>>;

export interface PrefixMatcher {
  /**
   * Operator id of the longest prefix of `nationalNumber` listed for `countryIso`, or null.
   * Example: `detect('NG', '8031234567')` → the id listed for prefix "803".
   */
  detect(countryIso: string, nationalNumber: string): number | null;
}

interface TrieNode {
  /** Operator id when a listed prefix ends here. */
  id: number | null;
  /** Children by digit 0-9. */
  next: Array<TrieNode | undefined> | null;
}

function newNode(): TrieNode {
  return { id: null, next: null };
}

/**
 * Builds a longest-prefix matcher once; each lookup walks one digit trie, O(length of the number).
 * Country codes are case-insensitive; prefixes must be digit strings (others are rejected).
 * A later duplicate of the same prefix in one country replaces the earlier one.
 *
 * @example
 * const m = createPrefixMatcher({ NG: [['803', 101], ['80', 100]] });
 * m.detect('NG', '8031234567'); // 101
 * m.detect('ng', '8051234567'); // 100
 * m.detect('NG', '7011234567'); // null
 */
export function createPrefixMatcher(prefixes: PrefixTable): PrefixMatcher {
  const roots = new Map<string, TrieNode>();
  for (const [iso, list] of Object.entries(prefixes)) {
    const root = roots.get(iso.toUpperCase()) ?? newNode();
    roots.set(iso.toUpperCase(), root);
    for (const [prefix, id] of list) {
      if (!/^\d*$/.test(prefix)) throw new Error(`prefix "${prefix}" of ${iso} is not a digit string`);
      if (!Number.isInteger(id))
        throw new Error(`operator id of prefix "${prefix}" of ${iso} is not an integer`);
      let node = root;
      for (let i = 0; i < prefix.length; i++) {
        const d = prefix.charCodeAt(i) - 48;
        node.next ??= new Array<TrieNode | undefined>(10);
        node.next[d] ??= newNode();
        node = node.next[d]!;
      }
      node.id = id;
    }
  }
  return {
    detect(countryIso: string, nationalNumber: string): number | null {
      let node: TrieNode | undefined = roots.get(countryIso.toUpperCase());
      if (!node) return null;
      let found = node.id;
      for (let i = 0; i < nationalNumber.length && node.next; i++) {
        const d = nationalNumber.charCodeAt(i) - 48;
        if (d < 0 || d > 9) break;
        node = node.next[d];
        if (!node) break;
        if (node.id !== null) found = node.id;
      }
      return found;
    },
  };
}
