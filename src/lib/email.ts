/**
 * The one e-mail address rule of airgift: a local part of 1 to 64 characters without spaces or '@',
 * and a domain of at least two dot-separated labels; at most 254 characters in all. Used by gift
 * card orders (`recipientEmail`) and by top-ups to Nauta's e-mail addressed operator.
 *
 * @example
 * parseEmail('ana99991@nauta.com.cu') // { local: 'ana99991', domain: 'nauta.com.cu' }
 * parseEmail('not an address')        // null
 */
const EMAIL = /^([^\s@]{1,64})@([^\s@.]+(?:\.[^\s@.]+)+)$/;
export const MAX_EMAIL_LENGTH = 254;
/** The rule as the OpenAPI documents state it (`pattern` + `maxLength`). */
export const EMAIL_PATTERN = EMAIL.source;

export function parseEmail(text: string): { local: string; domain: string } | null {
  if (text.length > MAX_EMAIL_LENGTH) return null;
  const match = EMAIL.exec(text);
  return match ? { local: match[1], domain: match[2] } : null;
}
