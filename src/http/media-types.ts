import { AppError } from '../errors/error-codes.ts';
import type { Product } from './bases.ts';

/**
 * Content negotiation (decisions §1). A product base serves `application/com.<vendor>.<product>-v1+json`
 * with any vendor word, so clients of the original service work unchanged, and also
 * `application/json`, `application/*` and `*\/*`. Another version or type is refused with 406.
 *
 * @example
 * checkAccept('application/com.reloadly.giftcards-v1+json', 'giftcards') // passes
 * checkAccept('application/com.reloadly.giftcards-v2+json', 'giftcards') // throws 406
 */
export function checkAccept(accept: string | undefined, product: Product | null): void {
  if (acceptable(accept, product)) return;
  const wanted = product
    ? `application/json or application/com.reloadly.${product}-v1+json`
    : 'application/json';
  throw new AppError('MEDIA_TYPE_NOT_ACCEPTABLE', `Cannot produce any of: ${accept}; send Accept: ${wanted}`);
}

/** The vendor media type of each product (and of any product), made once. */
const vendorTypes = new Map<string, RegExp>();
const vendorTypeOf = (product: Product | null) => {
  const name = product ?? '[a-z]+';
  let re = vendorTypes.get(name);
  if (!re) {
    re = new RegExp(`^application/(?:vnd\\.)?com\\.[\\w-]+\\.${name}-v1\\+json$`);
    vendorTypes.set(name, re);
  }
  return re;
};

/** True when the Accept header allows JSON (or the product's vendor type); no header allows anything. */
export function acceptable(accept: string | undefined, product: Product | null): boolean {
  if (accept === undefined || accept === 'application/json' || accept.trim() === '') return true;
  const vendorType = vendorTypeOf(product);
  for (const part of accept.split(',')) {
    const [rawType, ...params] = part.split(';');
    const type = rawType.trim().toLowerCase();
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    if (type === 'application/json' || type === '*/*' || type === 'application/*' || vendorType.test(type))
      return true;
  }
  return false;
}

/** Bodies are JSON, under any `application/...+json` name (the vendor types included). */
export const JSON_CONTENT_TYPE = /^application\/(?:[\w.-]+\+)?json(?:\s*;.*)?$/i;
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
