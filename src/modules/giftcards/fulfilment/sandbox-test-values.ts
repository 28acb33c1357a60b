import type { CatalogBrand, CatalogProduct } from '../catalog/catalog-file.ts';

/**
 * The sandbox's documented test values (decisions §7): reserved product ids 11–26 (ids 1–99 are
 * never used by the real catalog) whose orders force each outcome of the simulator. Every other valid
 * sandbox order succeeds at once. The products are shown by the sandbox only, never by live.
 *
 * | productId | outcome |
 * |---|---|
 * | 11 (FIXED), 12 (RANGE) | SUCCESSFUL at once, numeric codes |
 * | 13 | SUCCESSFUL at once, alphanumeric codes (sent as strings) |
 * | 21 | PROCESSING, then SUCCESSFUL `SANDBOX_PROCESSING_SECONDS` later |
 * | 22 | out of stock: with `preOrder: true` PENDING, then SUCCESSFUL `SANDBOX_PREORDER_SECONDS` later; without it, refused (422) |
 * | 24 | FAILED, then REFUNDED `SANDBOX_PROCESSING_SECONDS` later (refund entry then) |
 * | 25 | REFUNDED at once (refund entry in the ledger) |
 */
export type SandboxOutcome =
  | 'SUCCESS'
  | 'ALPHANUMERIC'
  | 'PROCESSING_THEN_SUCCESS'
  | 'PREORDER'
  | 'FAILED_THEN_REFUNDED'
  | 'REFUNDED';

export const SANDBOX_BRAND_ID = 999;
export const SANDBOX_TEST_ID_MAX = 99;

const OUTCOMES: Record<number, SandboxOutcome> = {
  11: 'SUCCESS',
  12: 'SUCCESS',
  13: 'ALPHANUMERIC',
  21: 'PROCESSING_THEN_SUCCESS',
  22: 'PREORDER',
  24: 'FAILED_THEN_REFUNDED',
  25: 'REFUNDED',
};

/** Each outcome as the dashboard's docs page says it, in the order it lists them. */
const OUTCOME_TEXT: Record<SandboxOutcome, string> = {
  SUCCESS: 'SUCCESSFUL at once, numeric codes',
  ALPHANUMERIC: 'SUCCESSFUL at once, alphanumeric codes',
  PROCESSING_THEN_SUCCESS: 'PROCESSING, then SUCCESSFUL',
  PREORDER: 'out of stock: PENDING with preOrder, else refused',
  FAILED_THEN_REFUNDED: 'FAILED, then REFUNDED',
  REFUNDED: 'REFUNDED at once',
};

/** The test products as the dashboard's docs page lists them (`productId 11, 12`: what they do). */
export const SANDBOX_TEST_PRODUCT_IDS = Object.entries(OUTCOME_TEXT).map(([outcome, text]) => ({
  value: `productId ${Object.keys(OUTCOMES)
    .filter((id) => OUTCOMES[Number(id)] === outcome)
    .join(', ')}`,
  outcome: text,
}));

export function sandboxOutcomeOf(productId: number): SandboxOutcome {
  return OUTCOMES[productId] ?? 'SUCCESS';
}

export function isSandboxTestProduct(productId: number): boolean {
  return productId <= SANDBOX_TEST_ID_MAX;
}

export const SANDBOX_BRAND: CatalogBrand = {
  brandId: SANDBOX_BRAND_ID,
  brandName: 'airgift Sandbox',
  categoryId: 4,
  concise: 'Sandbox test card: it has no value and cannot be redeemed anywhere.',
  verbose:
    'This card was issued by the airgift sandbox simulator to test an integration. Its number and PIN are deterministic test values; no merchant accepts them.',
  logoUrl: 'https://cdn.airgift.dev/logos/brands/airgift-sandbox.png',
};

function testProduct(productId: number, name: string, extra: Partial<CatalogProduct>): CatalogProduct {
  return {
    productId,
    productName: `airgift Sandbox ${name}`,
    brandId: SANDBOX_BRAND_ID,
    categoryId: 4,
    countryCode: 'US',
    global: false,
    supportsPreOrder: false,
    status: 'ACTIVE',
    denominationType: 'FIXED',
    recipientCurrencyCode: 'USD',
    fixedRecipientDenominations: ['10.00', '25.00', '50.00'],
    minRecipientDenomination: null,
    maxRecipientDenomination: null,
    senderFee: '0.50',
    senderFeePercentage: '1.00',
    discountPercentage: '2.00',
    userIdRequired: false,
    logoUrls: [SANDBOX_BRAND.logoUrl],
    ...extra,
  };
}

export const SANDBOX_TEST_PRODUCTS: CatalogProduct[] = [
  testProduct(11, 'Success', {}),
  testProduct(12, 'Success Range', {
    denominationType: 'RANGE',
    fixedRecipientDenominations: [],
    minRecipientDenomination: '5.00',
    maxRecipientDenomination: '500.00',
  }),
  testProduct(13, 'Alphanumeric Codes', {}),
  testProduct(21, 'Processing Then Success', {}),
  testProduct(22, 'Pre-order', { supportsPreOrder: true }),
  testProduct(24, 'Failed Then Refunded', {}),
  testProduct(25, 'Refunded', {}),
];
