/**
 * The one phone number rule of airgift: libphonenumber-js with its full metadata. Both products
 * check numbers with `normalizePhone` (gift card recipients, top-up recipients and senders,
 * auto-detect). Pure functions: no I/O.
 */
import {
  type CountryCode,
  isSupportedCountry,
  type PhoneNumber,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max';

export interface NormalizedPhone {
  /** E.164 form, e.g. "+2348031234567". */
  e164: string;
  /** National significant number (no trunk prefix), e.g. "8031234567". */
  nationalNumber: string;
  /** True when libphonenumber's full metadata accepts the number for the country it belongs to. */
  valid: boolean;
  /** True when the number belongs to the country that was asked for. */
  countryMatches: boolean;
  /** ISO country the number belongs to (may differ from the one asked for), or null if unknown. */
  countryIso: string | null;
  /** The calling code, without '+', e.g. "234". */
  callingCode: string;
  /** Number type per libphonenumber (MOBILE, FIXED_LINE_OR_MOBILE, ...), or null when unknown. */
  type: string | null;
}

/** Characters a phone number may be written with: digits, '+', spaces, dashes, dots, brackets, slashes. */
const PHONE_CHARS = /^\+?[\d\s\-.()/\u00a0]+$/;

/** A parsed reading with its validity and type, each asked of libphonenumber once (they are its costly part). */
interface Reading {
  parsed: PhoneNumber;
  valid: boolean;
  type: string | null;
}

function read(parsed: PhoneNumber): Reading {
  // The type first: where the metadata has types, isValid() is "getType() is defined" and would
  // compute the type a second time (its costly part); a number with a type is valid either way.
  const type = parsed.getType();
  if (type !== undefined) return { parsed, valid: true, type };
  return { parsed, valid: parsed.isValid(), type: null };
}

function toResult({ parsed, valid, type }: Reading, countryIso: string): NormalizedPhone {
  return {
    e164: parsed.number,
    nationalNumber: parsed.nationalNumber,
    valid,
    countryMatches: parsed.country === countryIso,
    countryIso: parsed.country ?? null,
    callingCode: parsed.countryCallingCode,
    type,
  };
}

function parse(text: string, country?: CountryCode): PhoneNumber | undefined {
  try {
    return parsePhoneNumberFromString(
      text,
      country ? { defaultCountry: country, extract: false } : undefined,
    );
  } catch {
    return undefined;
  }
}

/**
 * Normalises a phone number given for a country. The number may carry the country prefix or not, with or
 * without '+' or "00", with spaces, dashes, dots or brackets; a national trunk prefix ("0") is dropped.
 * A number carrying another country's prefix is recognised as that country's (`countryMatches: false`).
 * Returns null when the text is not a phone number at all (letters, too few digits, unknown country
 * without an international prefix). Invalid but parseable numbers come back with `valid: false`.
 *
 * @example
 * normalizePhone('08031234567', 'NG');     // { e164: '+2348031234567', nationalNumber: '8031234567', valid: true, countryMatches: true, ... }
 * normalizePhone('234 803 123 4567', 'NG'); // same number
 * normalizePhone('+44 7400 123456', 'NG');  // { e164: '+447400123456', valid: true, countryMatches: false, countryIso: 'GB', ... }
 * normalizePhone('hello', 'NG');            // null
 */
export function normalizePhone(phone: string, countryIso: string): NormalizedPhone | null {
  if (typeof phone !== 'string' || typeof countryIso !== 'string') return null;
  const text = phone.trim();
  if (!text || text.length > 40 || !PHONE_CHARS.test(text)) return null;
  const digits = text.replace(/\D/g, '');
  if (digits.length < 3 || digits.length > 17) return null;
  const iso = countryIso.trim().toUpperCase();
  const country = isSupportedCountry(iso) ? iso : undefined;

  if (text.startsWith('+')) {
    const intl = parse(`+${digits}`);
    return intl ? toResult(read(intl), iso) : null;
  }

  // prefer valid, then the asked country, then a mobile number; on a tie the national reading wins
  // (e.g. DE "4915112345678" is a valid fixed line nationally, but a mobile number with +49)
  const score = (c: Reading) =>
    c.valid
      ? 4 +
        (c.parsed.country === iso ? 2 : 0) +
        (c.type === 'MOBILE' || c.type === 'FIXED_LINE_OR_MOBILE' ? 1 : 0)
      : 0;
  const parsedNational = country ? parse(digits, country) : undefined;
  const national = parsedNational ? read(parsedNational) : undefined;
  // A valid mobile number of the asked country is the best a reading can be, and the national
  // reading wins ties: the international reading (a second parse) could not change the answer.
  if (national && score(national) === 7) return toResult(national, iso);
  // without '+': "00" international access prefix, or the calling code written without '+'
  const intlDigits = digits.startsWith('00') ? digits.slice(2) : digits;
  const parsedIntl = parse(`+${intlDigits}`);
  const intl = parsedIntl ? read(parsedIntl) : undefined;
  if (!national) return intl ? toResult(intl, iso) : null;
  return toResult(intl && score(intl) > score(national) ? intl : national, iso);
}

/** The number in E.164 (with its '+') when it is a valid number of `countryIso`, else null. */
export function validPhoneOf(phone: string, countryIso: string): NormalizedPhone | null {
  const n = normalizePhone(phone, countryIso);
  return n?.valid && n.countryMatches ? n : null;
}
