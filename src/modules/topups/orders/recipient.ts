import type { Static } from 'typebox';
import { AppError, type ErrorCode } from '../../../errors/error-codes.ts';
import { parseEmail } from '../../../lib/email.ts';
import { normalizePhone } from '../../../lib/phone.ts';
import type { Countries } from '../../reference/index.ts';
import type { OperatorRecord } from '../catalog/operator-catalog.ts';
import type { Phone } from './order-schemas.ts';

/**
 * Who a top-up goes to and comes from. Phone numbers are checked with libphonenumber-js (full
 * metadata) for the country they are given with, which must be the operator's for the recipient;
 * they are stored as E.164 digits without '+' ("2348031234567"), the form the reports show.
 * The e-mail addressed operator (Nauta, Cuba) takes an address at one of its domains instead.
 */
export type PhoneInput = Static<typeof Phone>;

export interface Recipient {
  phone: string | null;
  email: string | null;
  /** The digits a sandbox test value is read from (the national number, or the e-mail's local part). */
  subscriber: string;
}

/** Airtime goes to mobile numbers; libphonenumber cannot tell the two apart in some plans (US). */
const MOBILE_TYPES = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE']);

function checkPhone(
  phone: PhoneInput,
  code: ErrorCode,
  field: string,
  countries: Countries,
  requiredCountry?: string,
  mobileOnly = false,
) {
  const iso = phone.countryCode.trim().toUpperCase();
  const bad = (issue: string) =>
    new AppError(code, `${field} ${issue}`, [{ field: `${field}.number`, issue }]);
  if (!countries.find(iso)) throw bad(`has an unknown country "${phone.countryCode}"`);
  if (requiredCountry && iso !== requiredCountry) {
    throw bad(`is in ${iso}, but the operator serves ${requiredCountry}`);
  }
  const n = normalizePhone(phone.number, iso);
  if (!n?.valid || !n.countryMatches) throw bad(`is not a valid phone number in ${iso}`);
  if (mobileOnly && n.type !== null && !MOBILE_TYPES.has(n.type)) {
    throw bad(`is a ${n.type.toLowerCase().replace(/_/g, ' ')} number, not a mobile one`);
  }
  return { e164Digits: n.e164.slice(1), nationalNumber: n.nationalNumber };
}

export function checkRecipient(
  operator: OperatorRecord,
  input: { recipientPhone?: PhoneInput; recipientEmail?: string },
  countries: Countries,
): Recipient {
  if (operator.emailAddressed) {
    const email = input.recipientEmail?.trim().toLowerCase();
    if (!email) {
      throw new AppError('INVALID_REQUEST', `recipientEmail is required for ${operator.name}`, [
        { field: 'recipientEmail', issue: 'required' },
      ]);
    }
    const address = parseEmail(email);
    if (!address || !operator.emailDomains.includes(address.domain)) {
      throw new AppError(
        'INVALID_REQUEST',
        `recipientEmail must be an address at ${operator.emailDomains.join(' or ')}`,
        [{ field: 'recipientEmail', issue: 'domain not accepted' }],
      );
    }
    return { phone: null, email, subscriber: address.local.replace(/\D/g, '') };
  }
  if (!input.recipientPhone) {
    throw new AppError('INVALID_REQUEST', 'recipientPhone is required', [
      { field: 'recipientPhone', issue: 'required' },
    ]);
  }
  const iso = input.recipientPhone.countryCode.trim().toUpperCase();
  if (!countries.find(iso)) {
    throw new AppError(
      'COUNTRY_NOT_SUPPORTED',
      `Top-ups to "${input.recipientPhone.countryCode}" are not supported`,
    );
  }
  const phone = checkPhone(
    input.recipientPhone,
    'INVALID_RECIPIENT_PHONE',
    'recipientPhone',
    countries,
    operator.countryCode,
    true,
  );
  return { phone: phone.e164Digits, email: null, subscriber: phone.nationalNumber };
}

/** The sender's phone, when given, must be valid for its own country. */
export function checkSenderPhone(input: PhoneInput | undefined, countries: Countries): string | null {
  if (!input) return null;
  return checkPhone(input, 'INVALID_SENDER_PHONE', 'senderPhone', countries).e164Digits;
}
