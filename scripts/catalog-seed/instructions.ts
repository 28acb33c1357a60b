/**
 * Redeem instruction templates per category. `{brand}` is replaced with the brand name. Brands may
 * carry their own text instead (see `brands.ts`); player-id top-ups use `PLAYER_ID_TEMPLATE`.
 */
import {
  BEAUTY,
  BOOKS,
  ENTERTAINMENT,
  FASHION,
  FOOD,
  GAMING,
  HOME,
  KIDS,
  PAYMENT,
  SHOPPING,
  SOFTWARE,
  SPORTS,
  TELECOM,
  TRAVEL,
  WALLETS,
} from './brands.ts';

export interface InstructionTemplate {
  concise: string;
  verbose: string;
}

const STORE_CARD: InstructionTemplate = {
  concise:
    'Enter the card number and PIN at checkout on the {brand} website, or show the code in a {brand} store.',
  verbose:
    'Shop on the {brand} website or app and enter the gift card number and PIN in the payment step at ' +
    'checkout. In participating {brand} stores, show the code to the cashier. The card can be used ' +
    'several times until its balance runs out; the remaining balance stays on the card. It cannot be ' +
    'used to buy other gift cards and cannot be exchanged for cash.',
};

export const CATEGORY_TEMPLATES: Readonly<Record<number, InstructionTemplate>> = {
  [PAYMENT]: {
    concise:
      'Activate the card on the {brand} website, then pay online with its card number, expiry date and CVV.',
    verbose:
      'Your {brand} card is delivered as a virtual prepaid card with a card number, expiry date and ' +
      'security code. Visit the {brand} website to activate it and check its balance. Use it like any ' +
      'prepaid card for online purchases wherever {brand} is accepted. It cannot be used for cash ' +
      'withdrawals, and any unused balance expires on the date shown with the card.',
  },
  [GAMING]: {
    concise: 'Sign in to your {brand} account, choose Redeem Code, and enter the code.',
    verbose:
      'Visit the {brand} website or open {brand} on your console, PC or phone, and sign in. Choose ' +
      'Redeem Code (sometimes under Store or Wallet), enter the code exactly as shown and confirm. The ' +
      'value is added to your {brand} wallet at once and can be spent on games, add-ons and in-game ' +
      'content. Codes are region-locked: redeem them with an account registered in the card’s country.',
  },
  [ENTERTAINMENT]: {
    concise: 'Visit the {brand} website, sign in, and enter the code under Redeem Gift Card.',
    verbose:
      'Go to the {brand} website or open the {brand} app and sign in, or create an account. Open your ' +
      'account settings and choose Redeem Gift Card. Enter the code and confirm. The value is applied to ' +
      'your subscription or account balance and is used before any other payment method. Gift cards ' +
      'cannot be exchanged for cash.',
  },
  [SHOPPING]: {
    concise: 'Add the gift card to your {brand} account under Gift Cards or at checkout, then shop.',
    verbose:
      'Visit the {brand} website or app and sign in. Open your account’s Gift Cards section and enter ' +
      'the code, or enter it at checkout. The balance is stored in your account and applied to eligible ' +
      'orders; any remainder stays available for later purchases until it expires. Gift cards cannot be ' +
      'reloaded, resold or exchanged for cash.',
  },
  [FOOD]: {
    concise: 'Add the card to the {brand} app as a payment method, or show the code at the counter.',
    verbose:
      'Open the {brand} app or website, sign in, and add the gift card under Payment or Wallet with its ' +
      'card number and PIN. You can also show the code to the cashier at participating {brand} ' +
      'locations. The balance can be used over several orders until it runs out. It is not valid for ' +
      'alcohol where the law forbids it and cannot be exchanged for cash.',
  },
  [TRAVEL]: {
    concise: 'Add the gift card to your {brand} account; the credit is applied to your next booking or ride.',
    verbose:
      'Sign in on the {brand} website or app and open the Gift Cards or Payment section of your account. ' +
      'Enter the code to add its value as account credit. The credit is applied at checkout on eligible ' +
      'bookings or rides, and any remainder stays in your account. Credit cannot be transferred to ' +
      'another account or exchanged for cash; see the {brand} website for the terms in your country.',
  },
  [TELECOM]: {
    concise: 'Load the voucher PIN in the {brand} app or by dialling the recharge code shown with it.',
    verbose:
      'Load the voucher PIN onto a {brand} prepaid line in the {brand} app, on the {brand} website, or by ' +
      'dialling the recharge short code shown with the PIN. The credit is added to the line’s main ' +
      'balance and can be used for calls, texts, data or bundles. Vouchers work only on {brand} lines in ' +
      'the card’s country. Keep the PIN private until it is used.',
  },
  [FASHION]: STORE_CARD,
  [HOME]: {
    concise: 'Use the gift card number and PIN at checkout on the {brand} website or at the till in store.',
    verbose:
      'Choose your products on the {brand} website or app and select Gift Card as the payment method at ' +
      'checkout, then enter the card number and PIN. In {brand} stores, hand the code to the cashier. ' +
      'Large orders may be paid partly with the card and partly with another payment method. The card ' +
      'cannot be exchanged for cash and any remaining balance stays on the card.',
  },
  [BEAUTY]: STORE_CARD,
  [SOFTWARE]: {
    concise: 'Redeem the code in your {brand} account to add credit or activate your subscription.',
    verbose:
      'Visit the {brand} website or open the {brand} app and sign in. Open your account, choose Redeem ' +
      'Code and enter the code. The value is added to your account balance, or your subscription is ' +
      'activated or extended. Codes are single use and stay tied to the account that redeems them.',
  },
  [SPORTS]: STORE_CARD,
  [BOOKS]: {
    concise: 'Redeem the code on the {brand} website to add credit for books, audiobooks or courses.',
    verbose:
      'Sign in on the {brand} website or app and open the Redeem or Gift section of your account. Enter ' +
      'the code to add its value to your account. The credit can be used for books, audiobooks, courses ' +
      'or memberships offered by {brand} in your country. Codes are single use and cannot be exchanged ' +
      'for cash.',
  },
  [WALLETS]: {
    concise: 'Redeem the voucher in your {brand} account to credit your wallet.',
    verbose:
      'Sign in to your {brand} account on the {brand} website or app and open the voucher section of ' +
      'your wallet. Enter the voucher code to credit your wallet in the voucher’s currency. Identity ' +
      'verification may be required before first use, as local regulations demand. Vouchers are single ' +
      'use and cannot be refunded once redeemed.',
  },
  [KIDS]: STORE_CARD,
};

/** Instructions of top-ups credited straight to a player id given with the order. */
export const PLAYER_ID_TEMPLATE: InstructionTemplate = {
  concise: 'The credit is sent straight to the player ID given with the order; no code has to be entered.',
  verbose:
    'This {brand} top-up is delivered directly to the player account whose ID was supplied with the ' +
    'order. Check the player ID on the game’s profile screen before ordering. The credit usually ' +
    'appears within a few minutes; restart the game if it does not. Top-ups sent to a wrong player ID ' +
    'cannot be reversed. Visit the {brand} website for support.',
};

/** Extra sentence appended to the instructions of `global: true` products. */
export const GLOBAL_SUFFIX: InstructionTemplate = {
  concise: ' Redeemable with {brand} accounts in any supported country.',
  verbose:
    ' This global card can be redeemed with {brand} accounts registered in any supported country; ' +
    'when an account’s currency differs from {currency}, {brand} converts the value at its own rate.',
};

export function fill(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}
