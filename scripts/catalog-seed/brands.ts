/**
 * Hand-written catalog tables for the gift card seed: categories, country groups and brands.
 *
 * Ids here are written out by hand and are never reused or renumbered: a new category or brand gets
 * the next free id and is appended at the end of its list. Product ids are derived from the brand id
 * and the country (see `build-catalog-seed.ts`), so editing one brand never moves another's products.
 */

export interface CategorySeed {
  id: number;
  name: string;
}

/** Product categories. Ids are stable; append new ones at the end. */
export const CATEGORIES: readonly CategorySeed[] = [
  { id: 1, name: 'Payment Cards' },
  { id: 2, name: 'Gaming' },
  { id: 3, name: 'Entertainment' },
  { id: 4, name: 'Shopping' },
  { id: 5, name: 'Food & Dining' },
  { id: 6, name: 'Travel' },
  { id: 7, name: 'Mobile & Telecom' },
  { id: 8, name: 'Fashion' },
  { id: 9, name: 'Home & Electronics' },
  { id: 10, name: 'Health & Beauty' },
  { id: 11, name: 'Software & Apps' },
  { id: 12, name: 'Sports & Outdoors' },
  { id: 13, name: 'Books & Education' },
  { id: 14, name: 'Digital Wallets & Crypto' },
  { id: 15, name: 'Kids & Toys' },
];

export const PAYMENT = 1;
export const GAMING = 2;
export const ENTERTAINMENT = 3;
export const SHOPPING = 4;
export const FOOD = 5;
export const TRAVEL = 6;
export const TELECOM = 7;
export const FASHION = 8;
export const HOME = 9;
export const BEAUTY = 10;
export const SOFTWARE = 11;
export const SPORTS = 12;
export const BOOKS = 13;
export const WALLETS = 14;
export const KIDS = 15;

/**
 * Country groups usable in a brand's country list as `@NAME`. A list is a space-separated string of
 * ISO 3166-1 alpha-2 codes, `@GROUP` references and `-XX` exclusions, applied left to right.
 */
export const COUNTRY_GROUPS: Readonly<Record<string, string>> = {
  NORTH_AMERICA: 'US CA',
  EURO_CORE: 'DE FR IT ES NL BE AT IE PT FI',
  EUROZONE: '@EURO_CORE GR LU SK SI EE LV LT CY MT HR BG',
  NORDICS: 'SE DK NO FI',
  EU_EAST: 'PL CZ HU RO SK BG HR',
  LATAM: 'MX BR AR CL CO PE EC UY PY BO CR PA GT DO SV HN',
  LATAM_MAJOR: 'MX BR AR CL CO PE',
  GULF: 'AE SA KW QA BH OM',
  MENA: '@GULF JO EG MA TN LB',
  AFRICA: 'NG GH KE ZA UG TZ RW CM CI SN ZM',
  SEA: 'ID MY SG PH TH VN',
  SOUTH_ASIA: 'IN PK BD LK NP',
  EAST_ASIA: 'JP KR TW HK',
  ANZ: 'AU NZ',
  CARIBBEAN: 'JM TT BB BS HT LC GD AG DM KN VC KY TC BM AW CW',
};

export interface BrandSeed {
  /** Stable brand id, written by hand; never reused. */
  id: number;
  name: string;
  categoryId: number;
  /** Countries with a local product: ISO codes, `@GROUP` references and `-XX` exclusions. */
  countries: string;
  /** Currencies of `global: true` products of the brand (issued from `globalIssuer`). */
  global?: readonly ('USD' | 'EUR')[];
  /** Issuing country of the global products; default US for USD, DE for EUR. */
  globalIssuer?: string;
  /** Top-ups credited to a player id: `userIdRequired` on every product of the brand. */
  userId?: boolean;
  /** Share of the brand's products sold as RANGE (default 0.42; 0 for FIXED only). */
  rangeShare?: number;
  /** USD-equivalent face values the FIXED denominations are derived from (default: by category). */
  faceValues?: readonly number[];
  /** Own redeem instructions; default: the category's template with the brand name. */
  concise?: string;
  verbose?: string;
}

function b(
  id: number,
  name: string,
  categoryId: number,
  countries: string,
  options: Omit<BrandSeed, 'id' | 'name' | 'categoryId' | 'countries'> = {},
): BrandSeed {
  return { id, name, categoryId, countries, ...options };
}

/** The brands. Ids are stable: append new brands at the END with the next free id. */
export const BRANDS: readonly BrandSeed[] = [
  // Global majors
  b(1, 'Amazon', SHOPPING, 'US CA MX BR GB DE FR IT ES NL BE PL SE TR AE SA EG IN JP AU SG', {
    concise: 'Sign in to Amazon, go to Your Account > Gift Cards > Redeem, and enter the claim code.',
    verbose:
      'Visit the Amazon website or app for the card’s country and sign in. Open Your Account, choose ' +
      'Gift Cards and then Redeem a Gift Card. Enter the claim code exactly as shown and select Apply to ' +
      'Your Balance. The balance is used automatically on eligible orders from that Amazon store. Amazon ' +
      'gift cards cannot be transferred to another store, reloaded, resold or exchanged for cash.',
  }),
  b(
    2,
    'Apple',
    SOFTWARE,
    'US CA MX BR CL CO PE GB IE DE FR IT ES NL BE AT PT PL SE DK NO CH TR AE SA IN JP KR AU NZ SG HK TW MY TH PH ID ZA',
    {
      concise:
        'Open the App Store, tap your profile photo, choose Redeem Gift Card or Code, and enter the code.',
      verbose:
        'On an iPhone or iPad open the App Store, tap your profile photo and choose Redeem Gift Card or ' +
        'Code; on a Mac use the App Store menu, or visit the Apple website. Enter the 16-character code ' +
        'starting with X. The value is added to your Apple Account balance and can be spent on apps, games, ' +
        'subscriptions such as Apple Music and iCloud+, and products from Apple. The card works only with ' +
        'an Apple Account registered in the card’s country.',
      rangeShare: 0.3,
    },
  ),
  b(
    3,
    'Google Play',
    SOFTWARE,
    'US CA MX BR AR CL CO PE GB IE DE FR IT ES NL BE AT PT PL CZ HU RO SE DK NO CH GR TR AE SA KW QA EG IN PK ID MY SG PH TH VN JP KR TW HK AU NZ ZA NG KE',
    {
      concise:
        'Open the Google Play Store app, tap your profile icon, choose Payments & subscriptions > Redeem code.',
      verbose:
        'Open the Google Play Store app on an Android device, tap your profile icon and choose Payments & ' +
        'subscriptions, then Redeem code; or visit the Google Play website and select Redeem. Enter the ' +
        'code and confirm. The value is added to your Google Play balance and can be used for apps, games, ' +
        'in-app purchases, books and subscriptions. Codes work only for accounts in the card’s country.',
    },
  ),
  b(
    4,
    'Steam',
    GAMING,
    'US CA MX BR AR CL CO PE GB DE FR IT ES NL BE AT PT PL CZ SE DK NO CH TR AE SA KW IN ID MY SG PH TH JP KR AU NZ ZA',
    {
      global: ['USD', 'EUR'],
      concise: 'In the Steam client choose Games > Redeem a Steam Wallet Code and enter the code.',
      verbose:
        'Open the Steam client or visit the Steam website and sign in. Choose Games > Redeem a Steam Wallet ' +
        'Code (or Account details > Add funds). Enter the code and continue. The value is added to your ' +
        'Steam Wallet in your account’s currency, converted where needed, and can be spent on games, ' +
        'software and items in the Steam store and Community Market.',
    },
  ),
  b(
    5,
    'PlayStation',
    GAMING,
    'US CA MX BR AR CL CO PE GB IE DE FR IT ES NL BE AT PT PL CZ SE DK NO CH TR AE SA KW QA BH OM IN JP KR AU NZ SG HK',
    { rangeShare: 0.15, faceValues: [10, 20, 25, 50, 75, 100] },
  ),
  b(
    6,
    'Xbox',
    GAMING,
    'US CA MX BR AR CL CO GB IE DE FR IT ES NL BE AT PT PL CZ HU SE DK NO CH TR AE SA IN JP KR AU NZ SG HK ZA',
    { rangeShare: 0.15, faceValues: [10, 15, 25, 50, 100] },
  ),
  b(7, 'Nintendo eShop', GAMING, 'US CA MX GB DE FR IT ES NL BE AT PT JP AU NZ', {
    rangeShare: 0,
    faceValues: [10, 20, 35, 50, 70, 100],
  }),
  b(
    8,
    'Netflix',
    ENTERTAINMENT,
    'US CA MX BR AR CL CO PE GB IE DE FR IT ES NL BE AT PT PL SE CH TR AE SA EG IN ID MY PH TH JP KR AU NZ ZA NG',
    { rangeShare: 0.1 },
  ),
  b(
    9,
    'Spotify',
    ENTERTAINMENT,
    'US CA MX BR AR CL CO GB IE DE FR IT ES NL BE AT PL SE DK NO FI TR AE SA IN ID MY SG PH JP AU NZ ZA',
    { rangeShare: 0.1, faceValues: [10, 30, 60, 99, 120] },
  ),
  b(10, 'Uber', TRAVEL, 'US CA MX BR AR CL CO PE GB IE DE FR IT ES NL BE PT PL AE SA EG IN AU NZ ZA KE NG', {
    faceValues: [15, 25, 50, 100],
  }),
  b(11, 'Uber Eats', FOOD, 'US CA MX BR CL CO GB IE FR ES NL BE JP AU NZ', { faceValues: [15, 25, 50, 100] }),
  b(12, 'Airbnb', TRAVEL, 'US CA MX BR GB DE FR IT ES NL IE AU NZ JP SG', {
    global: ['USD', 'EUR'],
    globalIssuer: 'IE',
  }),
  b(
    13,
    'Roblox',
    GAMING,
    'US CA MX BR AR CL CO PE GB IE DE FR IT ES NL BE AT PT PL SE DK NO CH TR AE SA PH MY SG AU NZ',
    { global: ['USD', 'EUR'], faceValues: [10, 15, 20, 25, 50, 100] },
  ),
  b(
    14,
    'Razer Gold',
    GAMING,
    'US CA MX BR AR CL CO PE GB DE FR IT ES TR AE SA KW QA BH OM EG IN PK BD ID MY SG PH TH VN AU NZ NG ZA',
    { global: ['USD', 'EUR'], globalIssuer: 'SG', faceValues: [5, 10, 20, 50, 100, 200] },
  ),
  b(15, 'PUBG Mobile', GAMING, 'IN PK BD ID MY PH TH VN TR AE SA EG NG', {
    userId: true,
    global: ['USD'],
    globalIssuer: 'SG',
    rangeShare: 0,
    faceValues: [1, 5, 10, 25, 50, 100],
  }),
  b(16, 'Free Fire', GAMING, 'BR MX CO PE AR CL EC BO PY GT HN DO SV CR PA UY IN ID MY TH VN PH PK BD NG', {
    userId: true,
    global: ['USD'],
    globalIssuer: 'SG',
    rangeShare: 0,
    faceValues: [1, 2, 5, 10, 20, 50],
  }),
  b(17, 'Mobile Legends', GAMING, 'ID MY SG PH TH VN MM KH', {
    userId: true,
    global: ['USD'],
    globalIssuer: 'SG',
    rangeShare: 0,
    faceValues: [1, 2, 5, 10, 20, 50],
  }),
  b(18, 'Genshin Impact', GAMING, 'US CA GB DE FR JP KR TW HK SG MY ID PH TH AU', {
    userId: true,
    global: ['USD'],
    rangeShare: 0,
    faceValues: [1, 5, 15, 30, 50, 100],
  }),
  b(19, 'Fortnite', GAMING, 'US CA MX BR GB DE FR IT ES NL PL AU', {
    global: ['USD', 'EUR'],
    rangeShare: 0,
    faceValues: [10, 20, 25, 50, 100],
  }),
  b(20, 'Minecraft', GAMING, 'US CA MX BR GB DE FR IT ES AU JP', {
    global: ['USD', 'EUR'],
    rangeShare: 0,
    faceValues: [10, 20, 30],
  }),
  b(21, 'Valorant', GAMING, 'US CA BR MX GB DE FR ES IT TR JP KR AU SG PH', { global: ['USD', 'EUR'] }),
  b(22, 'League of Legends', GAMING, 'US CA BR MX GB DE FR ES IT PL TR JP KR AU', {
    global: ['USD', 'EUR'],
  }),
  b(23, 'Blizzard Battle.net', GAMING, 'US CA MX BR GB DE FR IT ES AU KR TW', { global: ['USD', 'EUR'] }),
  b(24, 'EA Play', GAMING, 'US CA GB DE FR IT ES NL PL AU BR MX', { global: ['USD'] }),
  b(25, 'Twitch', ENTERTAINMENT, 'US CA GB DE FR ES IT AU', { global: ['USD', 'EUR'] }),
  b(26, 'Disney+', ENTERTAINMENT, 'US CA GB DE FR IT ES NL AU NZ JP', { rangeShare: 0.1 }),
  b(27, 'Hulu', ENTERTAINMENT, 'US', { rangeShare: 0 }),
  b(28, 'Max', ENTERTAINMENT, 'US MX BR AR CL CO ES PT SE DK NO', { rangeShare: 0.1 }),
  b(29, 'Paramount+', ENTERTAINMENT, 'US CA GB AU MX BR IT', {}),
  b(30, 'Deezer', ENTERTAINMENT, 'FR DE BE NL BR MX GB', {}),
  b(31, 'Crunchyroll', ENTERTAINMENT, 'US CA GB FR DE ES IT BR MX AU', { global: ['USD', 'EUR'] }),
  b(32, 'DAZN', ENTERTAINMENT, 'DE AT IT ES JP CA', {}),

  // Payment cards and wallets
  b(33, 'Visa Prepaid', PAYMENT, 'US CA GB IE DE FR IT ES NL AU NZ AE SA MX', {
    global: ['USD', 'EUR'],
    rangeShare: 0.5,
  }),
  b(34, 'Mastercard Prepaid', PAYMENT, 'US CA GB IE DE FR IT ES NL AU AE SA BR MX ZA', {
    global: ['USD', 'EUR'],
    rangeShare: 0.5,
  }),
  b(35, 'American Express', PAYMENT, 'US', { rangeShare: 0.6 }),
  b(36, 'Vanilla', PAYMENT, 'US', { rangeShare: 0.4 }),
  b(37, 'Paysafecard', WALLETS, '@EURO_CORE GB PL CZ HU RO SK SE DK NO CH TR CA MX AU NZ', {
    rangeShare: 0.15,
    faceValues: [10, 25, 50, 100],
  }),
  b(38, 'Neosurf', WALLETS, 'FR BE ES IT DE AT PL CA AU NZ', {
    global: ['USD', 'EUR'],
    globalIssuer: 'FR',
    rangeShare: 0.15,
    faceValues: [10, 20, 50, 100],
  }),
  b(39, 'Flexepin', WALLETS, 'CA AU NZ DE FR IT ES NL PL', { global: ['USD', 'EUR'], globalIssuer: 'MT' }),
  b(40, 'Binance', WALLETS, '', { global: ['USD', 'EUR'], globalIssuer: 'MT' }),
  b(41, 'Crypto Voucher', WALLETS, '', { global: ['USD', 'EUR'], globalIssuer: 'NL' }),
  b(42, 'AstroPay', WALLETS, 'BR MX CL CO PE AR UY IN NG TR', { global: ['USD', 'EUR'], globalIssuer: 'UY' }),
  b(43, 'Prezzee', PAYMENT, 'AU NZ GB US', { rangeShare: 0.6 }),

  // US and Canada retail
  b(44, 'Walmart', SHOPPING, 'US CA MX', {}),
  b(45, 'Target', SHOPPING, 'US', {}),
  b(46, 'Best Buy', HOME, 'US CA', {}),
  b(47, 'The Home Depot', HOME, 'US CA', {}),
  b(48, "Lowe's", HOME, 'US', {}),
  b(49, 'Costco', SHOPPING, 'US CA', {}),
  b(50, 'eBay', SHOPPING, 'US CA GB DE FR IT ES AU', {}),
  b(51, 'Etsy', SHOPPING, 'US CA GB AU DE FR', {}),
  b(52, 'Ulta Beauty', BEAUTY, 'US', {}),
  b(53, 'Barnes & Noble', BOOKS, 'US', {}),
  b(54, 'AMC Theatres', ENTERTAINMENT, 'US', {}),
  b(55, 'Fandango', ENTERTAINMENT, 'US', {}),
  b(56, 'DoorDash', FOOD, 'US CA AU NZ', {}),
  b(57, 'Lyft', TRAVEL, 'US CA', {}),
  b(58, 'Chipotle', FOOD, 'US', {}),
  b(59, "Dunkin'", FOOD, 'US', {}),
  b(60, 'Southwest Airlines', TRAVEL, 'US', { faceValues: [50, 100, 200, 250, 500] }),
  b(61, 'Tim Hortons', FOOD, 'CA US', {}),
  b(62, 'Build-A-Bear', KIDS, 'US CA GB', {}),
  b(63, 'Toys"R"Us', KIDS, 'CA ES PT', {}),

  // Fashion, beauty, sports, home (multinational)
  b(
    64,
    'IKEA',
    HOME,
    'US CA MX GB IE DE FR IT ES NL BE AT PT PL CZ HU RO SE DK NO CH AE SA KW QA JP KR AU IN',
    {},
  ),
  b(
    65,
    'H&M',
    FASHION,
    'US CA MX GB IE DE FR IT ES NL BE AT PT PL CZ HU RO SE DK NO FI CH TR AE SA IN JP AU',
    {},
  ),
  b(66, 'Zara', FASHION, 'US CA MX BR GB DE FR IT ES NL BE PT PL TR AE SA KW QA IN JP', {}),
  b(67, 'Nike', SPORTS, 'US CA MX BR GB DE FR IT ES NL BE AT PL SE AU JP KR', {}),
  b(68, 'Adidas', SPORTS, 'US CA GB DE FR IT ES NL BE AT PL SE AU JP', {}),
  b(69, 'Decathlon', SPORTS, 'FR ES IT DE BE PT PL RO HU CZ NL GB IN SG MY TH', {}),
  b(70, 'Sephora', BEAUTY, 'US CA MX BR FR IT ES PT PL CZ RO AE SA KW SG MY AU', {}),
  b(71, 'Zalando', FASHION, 'DE AT CH FR IT ES NL BE PL SE DK FI NO IE CZ', {}),
  b(72, 'ASOS', FASHION, 'GB US DE FR IT ES AU IE NL SE DK PL', {}),
  b(73, 'Shein', FASHION, 'US CA GB FR DE ES IT MX BR AE SA AU', {}),
  b(74, 'Uniqlo', FASHION, 'JP KR SG MY TH PH ID VN TW HK AU GB US CA FR DE', {}),
  b(75, 'Pandora', FASHION, 'US CA GB DE FR IT ES NL AU', {}),
  b(76, 'Swarovski', FASHION, 'US GB DE AT CH FR IT', {}),
  b(77, 'Lego', KIDS, 'US CA GB DE FR IT ES NL BE AT DK SE PL AU', {}),
  b(78, 'Douglas', BEAUTY, 'DE AT NL BE IT ES PL FR CH CZ', {}),
  b(79, 'Rituals', BEAUTY, 'NL BE DE FR GB ES IT SE', {}),
  b(80, 'dm', BEAUTY, 'DE AT CZ HU SK SI HR RO BG RS BA', {}),

  // Travel and leisure (multinational)
  b(81, 'Booking.com', TRAVEL, 'US CA GB DE FR IT ES NL BE AT IE PT CH AE AU', {
    global: ['USD', 'EUR'],
    globalIssuer: 'NL',
  }),
  b(82, 'Hotels.com', TRAVEL, 'US CA GB DE FR IT ES AU NZ JP', { global: ['USD'] }),
  b(83, 'Expedia', TRAVEL, 'US CA GB DE FR IT ES AU MX', { global: ['USD'] }),
  b(84, 'Ryanair', TRAVEL, 'IE GB ES IT PL DE PT BE', {}),
  b(85, 'Trainline', TRAVEL, 'GB FR IT ES', {}),
  b(86, 'Bolt', TRAVEL, 'EE LV LT PL CZ PT ZA NG KE GH', {}),
  b(87, 'Hilton', TRAVEL, 'US GB AE', {}),
  b(88, 'Ticketmaster', ENTERTAINMENT, 'US CA GB IE AU NZ', {}),
  b(89, 'Cinépolis', ENTERTAINMENT, 'MX BR CO PE CR GT PA ES IN CL', {}),
  b(90, 'Cinemark', ENTERTAINMENT, 'US BR CL AR CO PE EC CR PA GT HN', {}),
  b(91, 'Vue', ENTERTAINMENT, 'GB IE DE NL IT PL', {}),
  b(92, 'Pathé', ENTERTAINMENT, 'FR NL CH BE', {}),

  // Food and dining (multinational)
  b(93, 'Starbucks', FOOD, 'US CA MX GB JP KR TH MY PH ID SG AE SA KW', {}),
  b(94, "Domino's", FOOD, 'US CA GB IE AU NZ IN NG MX', {}),
  b(95, 'KFC', FOOD, 'ZA NG KE GH MY PH AU', {}),
  b(96, 'Subway', FOOD, 'US CA GB', {}),
  b(97, 'Costa Coffee', FOOD, 'GB IE AE PL', {}),
  b(98, "Nando's", FOOD, 'ZA GB AU MY', {}),
  b(99, 'Deliveroo', FOOD, 'GB FR IT BE IE AE SG HK KW QA', {}),
  b(100, 'Glovo', FOOD, 'ES IT PT PL RO MA KE UG GH NG CI UA GE KZ', {}),
  b(101, 'Pizza Hut', FOOD, 'US MY PH PK AE SA', {}),

  // Telecom
  b(102, 'Vodafone', TELECOM, 'GB DE IT ES NL PT IE TR EG GH', {
    rangeShare: 0.1,
    faceValues: [5, 10, 15, 20, 30],
  }),
  b(103, 'Orange', TELECOM, 'FR ES BE PL RO SK MA EG CI SN CM JO TN', {
    rangeShare: 0.1,
    faceValues: [2, 5, 10, 20, 30],
  }),
  b(104, 'MTN', TELECOM, 'NG GH ZA UG CM CI RW ZM', { rangeShare: 0.2, faceValues: [1, 2, 5, 10, 20] }),
  b(105, 'Airtel', TELECOM, 'IN NG KE UG TZ RW ZM', { rangeShare: 0.2, faceValues: [1, 2, 5, 10, 20] }),
  b(106, 'Safaricom', TELECOM, 'KE', { rangeShare: 0.2, faceValues: [1, 2, 5, 10, 20] }),
  b(107, 'Jio', TELECOM, 'IN', { rangeShare: 0, faceValues: [2, 3, 5, 8, 10] }),
  b(108, 'Globe', TELECOM, 'PH', { rangeShare: 0.1, faceValues: [1, 2, 5, 10, 20] }),
  b(109, 'Smart', TELECOM, 'PH', { rangeShare: 0.1, faceValues: [1, 2, 5, 10, 20] }),
  b(110, 'Telcel', TELECOM, 'MX', { rangeShare: 0.1, faceValues: [2, 5, 10, 15, 25] }),
  b(111, 'Claro', TELECOM, 'BR AR CL CO PE EC DO GT SV HN PR PA CR UY PY', {
    rangeShare: 0.2,
    faceValues: [2, 5, 10, 15, 20],
  }),
  b(112, 'Movistar', TELECOM, 'ES MX AR CL CO PE EC UY', { rangeShare: 0.2, faceValues: [2, 5, 10, 15, 20] }),
  b(113, 'Etisalat', TELECOM, 'AE EG', { rangeShare: 0.1, faceValues: [5, 10, 15, 25, 50] }),
  b(114, 'STC', TELECOM, 'SA KW BH', { rangeShare: 0.1, faceValues: [5, 10, 15, 25, 50] }),
  b(115, 'Zain', TELECOM, 'KW SA JO BH IQ', { rangeShare: 0.1, faceValues: [5, 10, 15, 25, 50] }),
  b(116, 'Ooredoo', TELECOM, 'QA KW OM TN DZ MV', { rangeShare: 0.1, faceValues: [5, 10, 15, 25, 50] }),
  b(117, 'Lebara', TELECOM, 'GB DE FR ES NL DK AU', { rangeShare: 0, faceValues: [10, 15, 20, 30] }),
  b(118, 'Lycamobile', TELECOM, 'GB FR DE IT ES NL BE PT IE US AU PL DK SE NO CH AT', {
    rangeShare: 0,
    faceValues: [10, 15, 20, 30],
  }),
  b(119, 'Digicel', TELECOM, 'JM HT TT BB LC GD AG DM KN VC KY TC BM AW CW PG FJ SR GY SV PA', {
    rangeShare: 0.25,
    faceValues: [5, 10, 15, 20, 30, 50],
  }),
  b(120, 'Airalo', TELECOM, '', { global: ['USD', 'EUR'], globalIssuer: 'SG', rangeShare: 0 }),

  // Software, books and education
  b(121, 'Audible', BOOKS, 'US GB DE FR IT ES CA AU IN JP', {}),
  b(122, 'Kobo', BOOKS, 'CA US GB AU NZ FR IT ES NL JP', {}),
  b(123, 'Udemy', BOOKS, '', { global: ['USD', 'EUR'] }),
  b(124, 'Coursera', BOOKS, '', { global: ['USD', 'EUR'] }),
  b(125, 'Duolingo', BOOKS, '', { global: ['USD', 'EUR'] }),
  b(126, 'Babbel', BOOKS, 'DE US GB FR IT ES AT CH', { global: ['EUR'] }),
  b(127, 'NordVPN', SOFTWARE, '', { global: ['USD', 'EUR'], globalIssuer: 'NL' }),
  b(128, 'Waterstones', BOOKS, 'GB', {}),
  b(129, 'Jarir Bookstore', BOOKS, 'SA KW QA AE', {}),

  // Middle East and North Africa
  b(130, 'Noon', SHOPPING, 'AE SA EG', {}),
  b(131, 'Talabat', FOOD, 'AE KW QA BH OM JO EG IQ', {}),
  b(132, 'Careem', TRAVEL, 'AE SA JO PK QA KW', {}),
  b(133, 'Carrefour', SHOPPING, 'FR ES IT BE PL RO BR AR AE SA EG KW QA OM BH JO KE', {}),
  b(134, 'Centrepoint', FASHION, 'AE SA KW QA BH OM', {}),
  b(135, 'Namshi', FASHION, 'AE SA KW QA BH OM', {}),
  b(136, 'Virgin Megastore', ENTERTAINMENT, 'AE SA KW QA BH OM EG LB JO', {}),
  b(137, 'Sharaf DG', HOME, 'AE BH OM', {}),
  b(138, 'eXtra', HOME, 'SA OM BH', {}),
  b(139, 'Shahid', ENTERTAINMENT, 'AE SA KW QA BH OM EG JO LB IQ', { rangeShare: 0 }),
  b(140, 'OSN+', ENTERTAINMENT, 'AE SA KW QA BH OM EG', { rangeShare: 0 }),
  b(141, 'Anghami', ENTERTAINMENT, 'AE SA EG LB JO KW QA BH OM', { rangeShare: 0 }),
  b(142, 'Trendyol', SHOPPING, 'TR AZ', {}),
  b(143, 'Hepsiburada', SHOPPING, 'TR', {}),
  b(144, 'Yemeksepeti', FOOD, 'TR', {}),

  // Sub-Saharan Africa
  b(145, 'Jumia', SHOPPING, 'NG KE EG MA CI GH UG SN TN', {}),
  b(146, 'Takealot', SHOPPING, 'ZA', {}),
  b(147, 'Checkers', FOOD, 'ZA', {}),
  b(148, 'Pick n Pay', FOOD, 'ZA', {}),
  b(149, 'Shoprite', FOOD, 'ZA NG ZM GH', {}),
  b(150, 'Mr Price', FASHION, 'ZA NA BW ZM', {}),
  b(151, 'Konga', SHOPPING, 'NG', {}),
  b(152, 'Chicken Republic', FOOD, 'NG GH', {}),
  b(153, 'Showmax', ENTERTAINMENT, 'ZA NG KE GH UG TZ', { rangeShare: 0 }),
  b(154, 'DStv', ENTERTAINMENT, 'ZA NG KE GH UG TZ ZM', { rangeShare: 0.3 }),
  b(155, 'Boomplay', ENTERTAINMENT, 'NG GH KE TZ UG CM', { rangeShare: 0 }),

  // South Asia
  b(156, 'Flipkart', SHOPPING, 'IN', {}),
  b(157, 'Myntra', FASHION, 'IN', {}),
  b(158, 'Swiggy', FOOD, 'IN', {}),
  b(159, 'Zomato', FOOD, 'IN', {}),
  b(160, 'MakeMyTrip', TRAVEL, 'IN', {}),
  b(161, 'BigBasket', FOOD, 'IN', {}),
  b(162, 'Nykaa', BEAUTY, 'IN', {}),
  b(163, 'JioHotstar', ENTERTAINMENT, 'IN', { rangeShare: 0 }),
  b(164, 'Daraz', SHOPPING, 'PK BD LK NP', {}),
  b(165, 'Foodpanda', FOOD, 'PK BD MY SG PH TH TW HK', {}),

  // East and Southeast Asia
  b(166, 'Tokopedia', SHOPPING, 'ID', {}),
  b(167, 'Shopee', SHOPPING, 'ID MY SG PH TH VN TW BR', {}),
  b(168, 'Lazada', SHOPPING, 'ID MY SG PH TH VN', {}),
  b(169, 'Grab', TRAVEL, 'ID MY SG PH TH VN KH MM', {}),
  b(170, 'Gojek', TRAVEL, 'ID SG', {}),
  b(171, 'Jollibee', FOOD, 'PH', {}),
  b(172, 'Garena Shells', GAMING, 'SG MY TH PH ID VN TW', {
    global: ['USD'],
    globalIssuer: 'SG',
    rangeShare: 0,
    faceValues: [1, 5, 10, 20, 50],
  }),
  b(173, 'Rakuten', SHOPPING, 'JP', {}),
  b(174, 'Muji', HOME, 'JP', {}),
  b(175, 'Coupang', SHOPPING, 'KR', {}),
  b(176, 'LINE', SOFTWARE, 'JP TW TH ID', {}),
  b(177, 'Nexon', GAMING, 'KR US JP', { global: ['USD'] }),

  // Europe (regional)
  b(178, 'MediaMarkt', HOME, 'DE AT NL BE ES IT PL HU CH SE TR PT', {}),
  b(179, 'Fnac', HOME, 'FR ES PT BE CH', {}),
  b(180, 'El Corte Inglés', SHOPPING, 'ES PT', {}),
  b(181, 'Allegro', SHOPPING, 'PL CZ SK', {}),
  b(182, 'Bol.com', SHOPPING, 'NL BE', {}),
  b(183, 'Otto', SHOPPING, 'DE', {}),
  b(184, 'Tesco', FOOD, 'GB IE CZ HU SK', {}),
  b(185, "Sainsbury's", FOOD, 'GB', {}),
  b(186, 'Marks & Spencer', SHOPPING, 'GB IE', {}),
  b(187, 'Argos', HOME, 'GB', {}),
  b(188, 'John Lewis', SHOPPING, 'GB', {}),
  b(189, 'Currys', HOME, 'GB', {}),
  b(190, 'Boots', BEAUTY, 'GB IE', {}),
  b(191, 'Smyths Toys', KIDS, 'GB IE DE AT CH NL', {}),
  b(192, 'eMAG', SHOPPING, 'RO HU BG', {}),
  b(193, 'Alza', HOME, 'CZ SK HU AT', {}),
  b(194, 'Rozetka', HOME, 'UA', {}),
  b(195, 'Kaspi.kz', WALLETS, 'KZ', {}),
  b(196, 'Wolt', FOOD, 'FI EE LV LT SE DK NO DE CZ SK HU PL GR CY MT HR SI RS GE AZ IL JP', {}),

  // Latin America (regional)
  b(197, 'Mercado Libre', SHOPPING, 'AR BR MX CL CO PE UY EC', {}),
  b(198, 'Rappi', FOOD, 'CO MX BR AR CL PE EC UY CR', {}),
  b(199, 'Falabella', SHOPPING, 'CL PE CO', {}),
  b(200, 'Liverpool', SHOPPING, 'MX', {}),
  b(201, 'Magazine Luiza', SHOPPING, 'BR', {}),
  b(202, 'iFood', FOOD, 'BR', {}),
  b(203, 'Americanas', SHOPPING, 'BR', {}),
  b(204, 'Centauro', SPORTS, 'BR', {}),
  b(205, 'Netshoes', SPORTS, 'BR AR', {}),

  // Oceania
  b(206, 'JB Hi-Fi', HOME, 'AU NZ', {}),
  b(207, 'Woolworths', FOOD, 'AU', {}),
  b(208, 'The Warehouse', SHOPPING, 'NZ', {}),

  // More gaming with player ids
  b(209, 'Honkai: Star Rail', GAMING, 'US JP KR TW HK SG', {
    userId: true,
    global: ['USD'],
    rangeShare: 0,
    faceValues: [1, 5, 15, 30, 50, 100],
  }),
  b(210, 'Call of Duty: Mobile', GAMING, 'ID MY PH TH VN IN', {
    userId: true,
    global: ['USD'],
    globalIssuer: 'SG',
    rangeShare: 0,
    faceValues: [1, 2, 5, 10, 20, 50],
  }),
  b(211, 'Honor of Kings', GAMING, 'ID MY PH TH VN SG BR MX', {
    userId: true,
    global: ['USD'],
    globalIssuer: 'SG',
    rangeShare: 0,
    faceValues: [1, 2, 5, 10, 20, 50],
  }),

  // Global digital services
  b(212, 'Discord Nitro', SOFTWARE, '', { global: ['USD', 'EUR'], rangeShare: 0, faceValues: [10, 50, 100] }),
  b(213, 'ExpressVPN', SOFTWARE, '', { global: ['USD', 'EUR'], globalIssuer: 'VG', rangeShare: 0 }),
  b(214, 'Skillshare', BOOKS, '', { global: ['USD', 'EUR'] }),
  b(215, 'Perfect Money', WALLETS, '', { global: ['USD', 'EUR'], globalIssuer: 'PA' }),
  b(216, 'CASHlib', WALLETS, 'FR BE DE AT ES IT NL PT', { global: ['EUR'], globalIssuer: 'FR' }),
  b(217, 'Jeton Cash', WALLETS, 'TR GB DE', { global: ['EUR'], globalIssuer: 'GB' }),

  // Player-id top-ups sold worldwide
  b(218, 'Bigo Live', ENTERTAINMENT, '', {
    userId: true,
    global: ['USD'],
    globalIssuer: 'SG',
    rangeShare: 0,
  }),
  b(219, 'TikTok Coins', ENTERTAINMENT, '', { userId: true, global: ['USD'], rangeShare: 0 }),
  b(220, 'Lords Mobile', GAMING, '', { userId: true, global: ['USD'], globalIssuer: 'SG', rangeShare: 0 }),
  b(221, 'Rise of Kingdoms', GAMING, '', {
    userId: true,
    global: ['USD'],
    globalIssuer: 'HK',
    rangeShare: 0,
  }),
  b(222, 'Clash of Clans', GAMING, '', {
    userId: true,
    global: ['USD', 'EUR'],
    globalIssuer: 'FI',
    rangeShare: 0,
  }),
  b(223, 'Zepeto', GAMING, '', { userId: true, global: ['USD'], globalIssuer: 'KR', rangeShare: 0 }),

  // More global payment and software brands
  b(224, 'Rewarble', PAYMENT, '', { global: ['USD', 'EUR'], globalIssuer: 'CZ' }),
  b(225, 'Surfshark', SOFTWARE, '', { global: ['USD', 'EUR'], globalIssuer: 'NL', rangeShare: 0 }),
];
