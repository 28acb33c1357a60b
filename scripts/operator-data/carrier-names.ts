/**
 * Carrier name normalisation: the source data names one carrier in several ways ("MTN", "MTN Cameroon",
 * "Swazi MTN"; "Tele2 Sverige"; "telenor norge"), keeps legal suffixes ("Vodafone Libertel B.V."), and
 * still lists brands that were merged or renamed. Every raw name goes through
 *   1. explicit aliases (per country first, then global), a `null` alias dropping the carrier,
 *   2. generic clean-up (parentheses, legal suffixes, country names at either end),
 *   3. the aliases again on the cleaned name, then casing.
 * The result is the carrier's display name; its slug is the carrier key.
 */
import { worldCountries } from './countries.ts';

/** Lookup form of a name: ASCII, lowercase, letters, digits, '&' and '+' only. */
export function lookupKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9&+]/g, '');
}

/** Slug used as carrier key: "T-Mobile" → "t-mobile", "AT&T" → "at-t", "Türk Telekom" → "turk-telekom". */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\+/g, 'plus')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Names of entities that are not consumer mobile carriers, or that no longer operate. */
const BLOCKED = [
  /satellite/i,
  /national security/i,
  /home office/i,
  /royal court/i,
  /regulatory/i,
  /railway|rail corporation|rail track|gsm-r|polskie linie kolejowe|n\.m\.b\.s\./i,
  /infrastruktura|liikennevirasto|nkom/i,
  /\bnokia\b|ericsson/i,
  /holy shrine/i,
  /test2date/i,
  /\bsiget\b/i,
  /glonass/i,
];

/** Aliases valid in every country. Keys are `lookupKey` forms; `null` drops the carrier. */
const GLOBAL_ALIASES: Record<string, string | null> = {
  '3': 'Three',
  three: 'Three',
  hi3gaccess: 'Three',
  hutchisontelecom: 'Three',
  lycamobile: 'Lycamobile',
  lycamobiledenmarkltd: 'Lycamobile',
  lebara: 'Lebara',
  lebaralimited: 'Lebara',
  telia: 'Telia',
  teliasonera: 'Telia',
  teliatelecomsolution: 'Telia',
  tele2: 'Tele2',
  telenor: 'Telenor',
  vodafonelibertel: 'Vodafone',
  tmobile: 'T-Mobile',
  ooredoo: 'Ooredoo',
  ooredoogroup: 'Ooredoo',
  orange: 'Orange',
  airtel: 'Airtel',
  mtn: 'MTN',
  swazimtn: 'MTN',
  moov: 'Moov',
  claro: 'Claro',
  tigo: 'Tigo',
  movistar: 'Movistar',
  telefonicamoviles: 'Movistar',
  digicel: 'Digicel',
  vodacom: 'Vodacom',
  zain: 'Zain',
  etisalat: 'Etisalat',
  a1ta: 'A1',
  a1telekom: 'A1',
  epic: 'Epic',
  bmobile: 'bmobile',
  du: 'du',
  aliv: 'Aliv',
  mcel: 'Tmcel',
  vala: 'Vala',
  lifecell: 'lifecell',
  'life:)': 'life:)',
  myrepublic: 'MyRepublic',
  redone: 'redONE',
  vivohub: 'vivoHub',
  chilimobil: 'Chilimobil',
  cbbmobil: 'CBB Mobil',
  mundiomobile: 'Vectone Mobile',
  vectone: 'Vectone Mobile',
  vectonemobile: 'Vectone Mobile',
  singtel: 'Singtel',
  onvoy: null,
  fractel: null,
  multilinks: null,
  starcomms: null,
  instaphone: null,
  citycell: null,
  aircel: null,
  stel: null,
  specialcommunicationsorganization: 'SCOM',
  'cable & wireless': 'Flow',
  'c&w': 'Flow',
  'china unicom': 'China Unicom',
  'china broadnet': 'China Broadnet',
  'china telecom global': 'China Telecom',
  'm:tel': 'm:tel',
  spusu: 'spusu',
  digimobil: 'Digi',
  'digi communications': 'Digi',
  'sure south atlantic': 'Sure',
  diabolocom: null,
  keyyo: null,
  'kav el international': null,
  soracom: null,
  cubic: null,
  'velos iot': null,
  datamobile: null,
  'e*message': null,
  dimoco: null,
  'voyager internet limted': null,
  teleena: null,
  'vectone mobile/delight mobile': 'Vectone Mobile',
  oneonecommunications: 'One Communications',
};

/** Aliases that hold in one country only (rebrands, mergers, local brand names). */
const COUNTRY_ALIASES: Record<string, Record<string, string | null>> = {
  AE: { etisalat: 'Etisalat' },
  AF: { etisalat: 'Salaam' },
  AG: { 'cable&wireless': 'Flow', 'c&w': 'Flow', apua: 'APUA' },
  AI: { 'cable&wireless': 'Flow' },
  AO: { unitel: 'Unitel' },
  AT: { tmobileat: 'Magenta', tmobile: 'Magenta', orangeat: 'Three', a1ta: 'A1' },
  BB: { 'cable&wireless': 'Flow', lime: 'Flow', sunbeachcommunications: 'Sunbeach', ozone: 'Ozone' },
  BD: { teletalk: 'Teletalk' },
  BE: { mobilevikings: 'Mobile Vikings', 'mobilevikings/jimmobile': 'Mobile Vikings' },
  BG: { telenor: 'Yettel' },
  BH: { viva: 'STC', zainbh: 'Zain', batelco: 'Batelco' },
  BM: { cellularone: 'One Communications', mobility: 'One Communications', digicelbermuda: 'Digicel' },
  BO: { nuevatel: 'Viva' },
  BR: { brasiltelecomgsm: 'Oi', telemigcelular: 'Vivo' },
  BS: { batelco: 'BTC' },
  BT: { 'b-mobile of bhutan telecom': 'B-Mobile', 'tashicell of tashi infocomm': 'TashiCell' },
  BY: { velcom: 'A1' },
  BZ: { belizetelemedialtd: 'DigiCell', belizetelemedia: 'DigiCell', speednet: 'Smart' },
  CG: { 'congo telecom': 'Congo Telecom' },
  CL: {
    companiadetelecomunicacionesdechile: 'Movistar',
    vtrbandaancha: 'VTR',
    vtrmovil: 'VTR',
    vtrcomunicaciones: 'VTR',
  },
  CO: { partnerstelecomcolombia: 'WOM', uff: null },
  CR: { kolbiice: 'Kolbi', movistar: 'Liberty' },
  CU: { etecsa: 'Cubacel' },
  CY: { cytamobilevodafone: 'Cyta', mtn: 'Epic' },
  CZ: { 'sazka sazkova kancelar': 'SAZKAmobil' },
  DE: {
    tmobile: 'Telekom',
    eplus: 'O2',
    'eplus/telogic': 'O2',
    'eplus/sipgate': 'O2',
    'vodafone/lycamobile': 'Lycamobile',
    'vodafone/truphone': 'Truphone',
    '1&1mobilfunk': '1&1',
  },
  DK: { tdc: 'TDC', nuuday: 'TDC', yousee: 'TDC' },
  DM: { 'cable&wireless': 'Flow' },
  DO: { orange: 'Altice', tricom: 'Altice' },
  EG: { te: 'WE' },
  FR: {
    orangefrance: 'Orange',
    bouygues: 'Bouygues Telecom',
    freemobile: 'Free',
    euroinformationtelecom: 'EI Telecom',
  },
  GB: { orange: 'EE', ee: 'EE', o2: 'O2' },
  GD: { 'c&w': 'Flow', 'cable&wireless': 'Flow', digicelgrenada: 'Digicel' },
  GF: { sfr: 'SFR Caraïbe', freecaraibe: 'Free' },
  GH: { airteltigo: 'AirtelTigo', expresso: null },
  GP: { 'sfr/rife': 'SFR Caraïbe', freecaraibe: 'Free' },
  GR: { wind: 'Nova', cosmote: 'Cosmote' },
  HK: { hkt: 'csl', '3': 'Three' },
  HN: { sercom: 'Claro', celtel: 'Tigo', hondutel: 'Hondutel' },
  HR: { hrvatskitelekom: 'Hrvatski Telekom', tele2: 'Telemach', a1telekom: 'A1' },
  HU: { yettelhungary: 'Yettel', magyartelekom: 'Telekom' },
  ID: { indosatooredoohutchison: 'Indosat', axis: 'XL' },
  IE: { meteor: 'Eir', emobile: 'Eir', eircom: 'Eir', o2: 'Three' },
  IL: { orange: 'Partner', jawwal: null, ooredoo: null, hotmobile: 'Hot Mobile' },
  IN: {
    reliancejio: 'Jio',
    idea: 'Vi',
    vodafone: 'Vi',
    bsnlmobile: 'BSNL',
    tatadocomo: 'Airtel',
    telewings: 'Airtel',
    telenor: 'Airtel',
    uninor: 'Airtel',
  },
  IR: { irmci: 'MCI' },
  IS: { oryggisfjarskipti: null },
  IT: { wind: 'WindTre', '3italia': 'WindTre' },
  JM: { 'cable&wireless': 'Flow', 'c&w': 'Flow' },
  JP: {
    nttdocomo: 'Docomo',
    softbank: 'SoftBank',
    kddi: 'au',
    okinawacellular: 'au',
    rakutencommunications: 'Rakuten Mobile',
  },
  KE: { finserve: 'Equitel', telkom: 'Telkom' },
  KH: { 'qbmore/cadcomms': 'qb' },
  KN: { 'cable&wireless': 'Flow' },
  KR: { sktellink: 'SK Telecom' },
  KW: { viva: 'STC', virginmobile: null },
  KY: { 'cable&wireless': 'Flow', lime: 'Flow' },
  KZ: { 'kcell/activ': 'Kcell' },
  LC: { 'cable&wireless': 'Flow' },
  LI: { fl1: 'Telecom Liechtenstein' },
  LK: { etisalat: 'Hutch', airtel: 'Dialog' },
  LS: { vodacomlesotho: 'Vodacom', econetezicel: 'Econet' },
  LT: { bite: 'Bite' },
  LY: { almadar: 'Almadar', 'libya telecom & technology': 'LTT' },
  ME: { telenor: 'One', telekom: 'Crnogorski Telekom' },
  MH: { 'national telecommunications authority': 'NTA' },
  MK: { tmobile: 'Telekom', lycamobile: 'Lycamobile' },
  MM: { telenor: 'ATOM' },
  MP: { 'pti pacifica': 'IT&E' },
  MQ: { 'sfr/rife': 'SFR Caraïbe', 'free caraibe': 'Free' },
  MT: { gomobile: 'GO', melitamobile: 'Melita' },
  MU: { cellplus: 'my.t mobile' },
  MW: { 'malawi telecom-munications': 'MTL' },
  MY: { celecom: 'Celcom', digi: 'Digi' },
  NI: { movistar: 'Tigo' },
  NL: { tmobile: 'Odido', tmobilethuis: 'Odido', tele2: 'Odido', telfort: 'KPN' },
  NO: { telenornorge: 'Telenor', lysetele: 'Ice', lycamobile: 'Lycamobile', netcom: 'Telia' },
  NP: { ncell: 'Ncell' },
  NZ: {
    vodafone: 'One NZ',
    callplus: '2degrees',
    'sure (guernsey) new zealand limited': null,
    'link telecom': null,
  },
  PA: { 'cable&wireless': '+Móvil' },
  PG: { bmobile: 'bmobile' },
  PH: { dito: 'DITO' },
  PR: { centennial: 'Liberty', suncomwirelesspuertorico: 'T-Mobile' },
  PS: { palestinecellularcommunications: 'Jawwal' },
  QA: { ooredoo: 'Ooredoo' },
  RE: { sfr: 'SFR Réunion', telcooi: 'Only', zeopmobile: 'Zeop' },
  RO: { digimobil: 'Digi' },
  RS: { telenor: 'Yettel', telekomsrbija: 'mts', telekomsrbijaad: 'mts' },
  RW: { tigo: 'Airtel', ktrn: null },
  SB: { bmobile: 'bmobile' },
  SE: { tele2sverige: 'Tele2', telenorsverige: 'Telenor', lycamobilesweden: 'Lycamobile' },
  SM: { 'telecom italia san marino': 'TIM', 'telecom italia': 'TIM', telenet: 'TeleNet' },
  SK: { tmobile: 'Telekom', telefonicao2: 'O2', '4kaofswan': '4ka' },
  SV: { siget: null },
  SZ: { eswatinimobile: 'Eswatini Mobile' },
  TH: { truemove: 'TrueMove H', dtac: 'dtac', totmobile: 'NT' },
  TK: { 'teletok telecommunications': 'Teletok' },
  TL: { viettel: 'Telemor' },
  TR: { turktelekom: 'Türk Telekom' },
  TW: { tstar: 'Taiwan Mobile', asiapacifictelecom: 'FarEasTone' },
  TZ: { viettel: 'Halotel', tanzaniatelecom: 'TTCL' },
  UG: { africell: null },
  US: { onvoy: null, fractel: null },
  UZ: { mobiuz: 'Mobiuz', uzbektelecom: 'Uztelecom' },
  VC: { 'cable&wireless': 'Flow', 'at&t': null },
  VE: { digitelgsm: 'Digitel' },
  VG: { 'cable&wireless': 'Flow' },
  VI: { vitelcomcellular: 'Viya' },
  WF: { 'service des postes et telecommunications': 'SPT' },
  YE: { mtn: 'YOU', y: 'Y-Telecom' },
  YT: { sfr: 'SFR', telcooi: 'Only' },
  ZA: { telkommobile: 'Telkom' },
  ZM: { zamtel: 'Zamtel' },
  ZW: { 'net*one': 'NetOne', netone: 'NetOne' },
};

function normalizeKeys(table: Record<string, string | null>): Map<string, string | null> {
  return new Map(Object.entries(table).map(([k, v]) => [lookupKey(k), v]));
}
const GLOBAL = normalizeKeys(GLOBAL_ALIASES);
const BY_COUNTRY = new Map(Object.entries(COUNTRY_ALIASES).map(([iso, t]) => [iso, normalizeKeys(t)]));

/** Words that must not be left alone after a country name is removed ("Nepal Telecom" stays). */
const GENERIC = new Set([
  'telecom',
  'telekom',
  'telecoms',
  'telecommunications',
  'tele',
  'telco',
  'mobile',
  'mobil',
  'movil',
  'cell',
  'cellular',
  'wireless',
  'networks',
  'network',
  'communications',
  'net',
  '',
]);

const LEGAL_SUFFIX =
  /(,?\s+(ltd\.?|limited|s\.a\.?c?\.?i?\.?|sa|a\/s|ab|as|b\.v\.?|bv|gmbh|ag|inc\.?|llc|plc|pty|sp\. z o\.o\.|sp\.? k\.|s\.r\.o\.?|a\.s\.?|a\.d\.|d\.o\.o\.?|oy|sasu|sas|srl|spa\.?|s\.p\.a\.|sprl|cjsc|ou|aps|pte|co))+\.?$/i;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Country words per ISO code: common, official and native names, alternative spellings, demonym. */
const COUNTRY_WORDS = new Map<string, string[]>();
for (const c of worldCountries) {
  const words = new Set<string>([c.name.common, c.name.official, c.cca2, c.cca3]);
  for (const n of Object.values(c.name.native ?? {})) {
    words.add(n.common);
    words.add(n.official);
  }
  for (const a of c.altSpellings ?? []) words.add(a);
  const dem = c.demonyms?.eng?.m;
  if (dem) words.add(dem);
  // longest first, so "Republic of Korea" goes before "Korea"
  COUNTRY_WORDS.set(
    c.cca2,
    [...words].filter((w) => w && w.length >= 2).sort((a, b) => b.length - a.length),
  );
}
const EXTRA_WORDS: Record<string, string[]> = {
  CZ: ['CR', 'Czech Republic'],
  GB: ['UK'],
  KN: ['St. Kitts', 'St Kitts'],
  LV: ['Latvia'],
  CL: ['Chile'],
  NL: ['NL', 'Nederland'],
  TR: ['Turkey'],
};

function stripCountry(name: string, iso: string): string {
  const words = [...(EXTRA_WORDS[iso] ?? []), ...(COUNTRY_WORDS.get(iso) ?? [])];
  let out = name;
  for (const w of words) {
    const e = escapeRegExp(w);
    const re = new RegExp(`^${e}\\s+|\\s+${e}$`, 'i');
    const next = out.replace(re, '').trim();
    if (next !== out && !GENERIC.has(next.toLowerCase())) out = next;
  }
  return out;
}

function fixCase(name: string): string {
  if (/[A-Z]/.test(name)) return name;
  return name
    .split(/\s+/)
    .map((w) =>
      w.length <= 3 && /^[a-z]+$/.test(w) ? w.toUpperCase() : w.charAt(0).toUpperCase() + w.slice(1),
    )
    .join(' ');
}

function alias(name: string, iso: string): string | null | undefined {
  const k = lookupKey(name);
  const local = BY_COUNTRY.get(iso);
  if (local?.has(k)) return local.get(k);
  if (GLOBAL.has(k)) return GLOBAL.get(k);
  return undefined;
}

/**
 * Display name of a carrier in a country, or null when the carrier is dropped.
 * Example: `normalizeCarrierName('MTN Cameroon', 'CM')` → `'MTN'`; `normalizeCarrierName('Idea', 'IN')` → `'Vi'`.
 */
export function normalizeCarrierName(raw: string, iso: string): string | null {
  const cacheKey = `${iso}\u0000${raw}`;
  if (cache.has(cacheKey)) return cache.get(cacheKey)!;
  const name = normalizeUncached(raw, iso);
  cache.set(cacheKey, name);
  return name;
}

const cache = new Map<string, string | null>();

function normalizeUncached(raw: string, iso: string): string | null {
  const trimmed = raw.replace(/\s+/g, ' ').trim();
  if (!trimmed || BLOCKED.some((re) => re.test(trimmed))) return null;
  const direct = alias(trimmed, iso);
  if (direct !== undefined) return direct;
  let name = trimmed.replace(/\s*\([^)]*\)\s*/g, ' ').trim();
  name = name.replace(LEGAL_SUFFIX, '').trim();
  const unstripped = alias(name, iso);
  if (unstripped !== undefined) return unstripped;
  name = stripCountry(name, iso);
  name = name.replace(LEGAL_SUFFIX, '').trim();
  const again = alias(name, iso);
  if (again !== undefined) return again;
  return fixCase(name.replace(/\s+/g, ' '));
}
