import { AppError } from '../../../errors/error-codes.ts';
import type { Clock } from '../../../lib/clock.ts';
import type { DeliveryRepository } from './delivery-repository.ts';

/**
 * An account's branding of what its recipients see (the e-mail and the redeem page): the name shown
 * as the sender (else the account's name), a logo (https only), a colour (#rrggbb), a footer line,
 * and whether the codes go inline in the e-mail (off by default: the link only).
 */
export interface Branding {
  displayName: string | null;
  logoUrl: string | null;
  color: string | null;
  footer: string | null;
  codeInEmail: boolean;
}

const LIMITS = { displayName: 100, logoUrl: 500, footer: 200 };

export function checkBranding(input: Branding): Branding {
  const problems: { field: string; issue: string }[] = [];
  const text = (field: keyof typeof LIMITS, value: string | null) => {
    const v = value?.trim() || null;
    if (v && v.length > LIMITS[field]) problems.push({ field, issue: `at most ${LIMITS[field]} characters` });
    if (v && /\p{Cc}/u.test(v)) problems.push({ field, issue: 'no control characters' });
    return v;
  };
  const out: Branding = {
    displayName: text('displayName', input.displayName),
    logoUrl: text('logoUrl', input.logoUrl),
    color: input.color?.trim() || null,
    footer: text('footer', input.footer),
    codeInEmail: input.codeInEmail,
  };
  if (out.logoUrl && !/^https:\/\/[^\s"'<>]+$/.test(out.logoUrl)) {
    problems.push({ field: 'logoUrl', issue: 'an https:// URL' });
  }
  if (out.color && !/^#[0-9a-fA-F]{6}$/.test(out.color))
    problems.push({ field: 'color', issue: 'a colour as #rrggbb' });
  if (problems.length > 0) throw new AppError('INVALID_REQUEST', 'The branding is not valid', problems);
  return out;
}

export function createBrandingService(deps: { repository: DeliveryRepository; clock: Clock }) {
  return {
    async get(accountId: number): Promise<Branding> {
      return (
        (await deps.repository.branding(accountId)) ?? {
          displayName: null,
          logoUrl: null,
          color: null,
          footer: null,
          codeInEmail: false,
        }
      );
    },
    async set(accountId: number, input: Branding): Promise<Branding> {
      const checked = checkBranding(input);
      await deps.repository.setBranding(accountId, checked, deps.clock.now());
      return checked;
    },
  };
}

export type BrandingService = ReturnType<typeof createBrandingService>;
