/**
 * Operator auto-detection: phone normalisation, the longest-prefix matcher, and the generated operator
 * catalogue under data/operators (see data/operators/README.md).
 *
 *   node --import tsx --test test/topups/operator-detection.test.ts
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { LOCAL_AMOUNTS_EXCLUDED } from '../../scripts/operator-data/local-amounts.ts';
import { normalizePhone } from '../../src/lib/phone.ts';
import type { OperatorRecord, PromotionRecord } from '../../src/modules/topups/catalog/operator-catalog.ts';
import { createPrefixMatcher } from '../../src/modules/topups/catalog/operator-detection.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DATA = path.join(ROOT, 'data', 'operators');

type Operator = OperatorRecord;
type Promotion = PromotionRecord;

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(path.join(DATA, file), 'utf8')) as T;
}

const operators = readJson<Operator[]>('operators.json');
const prefixes = readJson<Record<string, Array<[string, number]>>>('prefixes.json');
const promotions = readJson<Promotion[]>('promotions.json');
const registry = readJson<{ operators: Record<string, number>; promotions: Record<string, number> }>(
  'id-registry.json',
);
const byId = new Map(operators.map((o) => [o.operatorId, o]));
const matcher = createPrefixMatcher(prefixes);

/** Name of the operator auto-detected for a number given for a country, or null. */
function detectName(phone: string, iso: string): string | null {
  const n = normalizePhone(phone, iso);
  if (!n?.valid) return null;
  const id = matcher.detect(n.countryIso ?? iso, n.nationalNumber);
  return id === null ? null : (byId.get(id)?.name ?? null);
}

/** Real numbering: [country, national form as dialled locally, E.164, operator expected]. */
const CASES: Array<[string, string, string, string]> = [
  ['NG', '08031234567', '+2348031234567', 'MTN Nigeria'],
  ['NG', '08021234567', '+2348021234567', 'Airtel Nigeria'],
  ['NG', '08051234567', '+2348051234567', 'Glo Nigeria'],
  ['IN', '09810012345', '+919810012345', 'Airtel India'],
  ['PH', '09171234567', '+639171234567', 'Globe Philippines'],
  ['KE', '0722123456', '+254722123456', 'Safaricom Kenya'],
  ['GB', '07400 123456', '+447400123456', 'Three United Kingdom'],
  ['GB', '07700 123456', '+447700123456', 'O2 United Kingdom'],
  ['JM', '876-843-1234', '+18768431234', 'Digicel Jamaica'],
  ['MX', '55 1234 5678', '+525512345678', 'Telcel Mexico'],
  ['BD', '01712345678', '+8801712345678', 'Grameenphone Bangladesh'],
  ['ZA', '082 123 4567', '+27821234567', 'Vodacom South Africa'],
  ['ZA', '083 123 4567', '+27831234567', 'MTN South Africa'],
  ['EG', '01001234567', '+201001234567', 'Vodafone Egypt'],
  ['GH', '024 123 4567', '+233241234567', 'MTN Ghana'],
  ['UG', '0772 123456', '+256772123456', 'MTN Uganda'],
  ['TZ', '0754 123 456', '+255754123456', 'Vodacom Tanzania'],
  ['PK', '0300 1234567', '+923001234567', 'Jazz Pakistan'],
  ['ID', '0811-2345-6789', '+6281123456789', 'Telkomsel Indonesia'],
  ['VN', '098 123 45 67', '+84981234567', 'Viettel Vietnam'],
  ['MY', '012-345 6789', '+60123456789', 'Maxis Malaysia'],
  ['DE', '0151 12345678', '+4915112345678', 'Telekom Germany'],
  ['DE', '0172 1234567', '+491721234567', 'Vodafone Germany'],
  ['IT', '333 123 4567', '+393331234567', 'TIM Italy'],
  ['TR', '0532 123 45 67', '+905321234567', 'Turkcell Turkey'],
  ['RU', '8 903 123-45-67', '+79031234567', 'Beeline Russia'],
  ['RU', '8 916 123-45-67', '+79161234567', 'MTS Russia'],
  ['UA', '067 123 4567', '+380671234567', 'Kyivstar Ukraine'],
  ['CN', '138 1234 5678', '+8613812345678', 'China Mobile'],
  ['SA', '050 123 4567', '+966501234567', 'STC Saudi Arabia'],
  ['AE', '055 123 4567', '+971551234567', 'du United Arab Emirates'],
  ['SN', '77 123 45 67', '+221771234567', 'Orange Senegal'],
  ['CI', '07 01 23 45 67', '+2250701234567', 'Orange Ivory Coast'],
  ['CM', '6 71 23 45 67', '+237671234567', 'MTN Cameroon'],
  ['ZM', '097 1234567', '+260971234567', 'Airtel Zambia'],
  ['ZW', '077 123 4567', '+263771234567', 'Econet Zimbabwe'],
  ['NP', '980-1234567', '+9779801234567', 'Ncell Nepal'],
  ['LK', '077 123 4567', '+94771234567', 'Dialog Sri Lanka'],
  ['CU', '5 2345678', '+5352345678', 'Cubacel Cuba'],
  ['NZ', '021 123 4567', '+64211234567', 'One NZ New Zealand'],
  ['PT', '961 234 567', '+351961234567', 'MEO Portugal'],
  ['KZ', '8 701 123 4567', '+77011234567', 'Kcell Kazakhstan'],
  ['CO', '315 123 4567', '+573151234567', 'Movistar Colombia'],
  ['HT', '3712 3456', '+50937123456', 'Digicel Haiti'],
  ['RW', '078 123 4567', '+250781234567', 'MTN Rwanda'],
  ['BR', '(11) 98123-4567', '+5511981234567', 'TIM Brazil'],
];

/** The international forms a client may send: E.164, without '+', with "00", spaced and dashed. */
function internationalForms(e164: string, cc: string): string[] {
  const rest = e164.slice(1 + cc.length);
  const spaced = `+${cc} ${rest.slice(0, 3)}-${rest.slice(3, 6)}-${rest.slice(6)}`;
  return [e164, e164.slice(1), `00${e164.slice(1)}`, spaced];
}

describe('normalizePhone + prefix matcher on real numbers', () => {
  it('covers at least 30 countries', () => {
    assert.ok(new Set(CASES.map((c) => c[0])).size >= 30);
  });

  for (const [iso, national, e164, name] of CASES) {
    it(`${iso} ${national} → ${name}`, () => {
      const local = normalizePhone(national, iso);
      assert.ok(local, 'parsed');
      assert.equal(local.e164, e164);
      assert.equal(local.valid, true);
      assert.equal(local.countryMatches, true);
      assert.equal(local.countryIso, iso);
      assert.equal(detectName(national, iso), name);
      for (const form of internationalForms(e164, local.callingCode)) {
        const n = normalizePhone(form, iso);
        assert.equal(n?.e164, e164, form);
        assert.equal(n?.nationalNumber, local.nationalNumber, form);
        assert.equal(n?.countryMatches, true, form);
        assert.equal(detectName(form, iso), name, form);
      }
    });
  }

  it('accepts the calling code written without "+" (e.g. 2348031234567)', () => {
    const n = normalizePhone('2348031234567', 'NG');
    assert.equal(n?.e164, '+2348031234567');
    assert.equal(n?.nationalNumber, '8031234567');
  });

  it("detects a number carrying another country's prefix (countryMatches false)", () => {
    for (const phone of ['+44 7400 123456', '447400123456', '00447400123456']) {
      const n = normalizePhone(phone, 'NG');
      assert.ok(n, phone);
      assert.equal(n.valid, true);
      assert.equal(n.countryMatches, false);
      assert.equal(n.countryIso, 'GB');
      assert.equal(detectName(phone, 'NG'), 'Three United Kingdom');
    }
  });

  it('places +1 numbers in their NANP country (876 is Jamaica, not the US)', () => {
    const n = normalizePhone('876 843 1234', 'US');
    assert.equal(n?.countryIso, 'JM');
    assert.equal(n?.countryMatches, false);
    assert.equal(detectName('+1 876 843 1234', 'JM'), 'Digicel Jamaica');
  });

  it('rejects what is not a phone number', () => {
    for (const phone of [
      '',
      '   ',
      'abc',
      '12',
      '+234',
      '0803 123 4567 ext 5',
      '+99912345678',
      '080312345678901234',
    ]) {
      assert.equal(normalizePhone(phone, 'NG'), null, JSON.stringify(phone));
    }
    assert.equal(normalizePhone('8031234567', 'XX'), null, 'unknown country without international prefix');
  });

  it('flags invalid numbers and detects no operator for them', () => {
    for (const phone of ['0803123', '+2340000000000', '01234567', '+23480312345']) {
      const n = normalizePhone(phone, 'NG');
      assert.ok(n, phone);
      assert.equal(n.valid, false, phone);
      assert.equal(detectName(phone, 'NG'), null, phone);
    }
    assert.equal(normalizePhone('+1 202 555', 'US')?.valid ?? false, false);
  });

  it('finds no operator where the data has no ranges (US, CA, AR), though operators exist', () => {
    assert.equal(normalizePhone('+1 202 555 0123', 'US')?.valid, true);
    assert.equal(detectName('+1 202 555 0123', 'US'), null);
    assert.equal(detectName('+1 416 555 0123', 'CA'), null);
    for (const iso of ['US', 'CA', 'AR']) {
      assert.ok(
        operators.some((o) => o.countryCode === iso && o.variant === 'airtime'),
        iso,
      );
    }
  });
});

describe('createPrefixMatcher', () => {
  const m = createPrefixMatcher({
    NG: [
      ['80', 1],
      ['803', 2],
      ['8031', 3],
      ['70', 4],
    ],
    gb: [['7', 9]],
  });

  it('returns the longest listed prefix', () => {
    assert.equal(m.detect('NG', '8031234567'), 3);
    assert.equal(m.detect('NG', '8032234567'), 2);
    assert.equal(m.detect('NG', '8051234567'), 1);
    assert.equal(m.detect('NG', '7011234567'), 4);
  });

  it('returns null when nothing matches or the country is unknown', () => {
    assert.equal(m.detect('NG', '9011234567'), null);
    assert.equal(m.detect('NG', ''), null);
    assert.equal(m.detect('KE', '7221234567'), null);
  });

  it('treats country codes case-insensitively', () => {
    assert.equal(m.detect('ng', '8031234567'), 3);
    assert.equal(m.detect('GB', '7400123456'), 9);
  });

  it('rejects prefixes that are not digit strings', () => {
    assert.throws(() => createPrefixMatcher({ NG: [['80a', 1]] }));
  });

  it('answers 100k lookups over the full table quickly', () => {
    const numbers = CASES.map(
      ([iso, national]) => [iso, normalizePhone(national, iso)!.nationalNumber] as const,
    );
    const t = process.hrtime.bigint();
    for (let i = 0; i < 100_000; i++) {
      const [iso, nsn] = numbers[i % numbers.length];
      matcher.detect(iso, nsn);
    }
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    assert.ok(ms < 1000, `${ms} ms`);
  });
});

describe('data/operators', () => {
  const AMOUNT = /^\d+(\.\d{1,3})?$/;
  const PERCENT = /^\d{1,2}\.\d{2}$/;
  const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

  it('keeps every file under 4 MiB', () => {
    for (const f of readdirSync(DATA).filter((x) => x.endsWith('.json'))) {
      assert.ok(statSync(path.join(DATA, f)).size < 4 * 1024 * 1024, f);
    }
  });

  it('covers at least 150 countries', () => {
    assert.ok(new Set(operators.map((o) => o.countryCode)).size >= 150);
    assert.ok(Object.keys(prefixes).length >= 150);
  });

  it('has unique ids from 100 up and unique names', () => {
    assert.equal(byId.size, operators.length);
    assert.ok(operators.every((o) => Number.isInteger(o.operatorId) && o.operatorId >= 100));
    assert.equal(new Set(operators.map((o) => o.name)).size, operators.length);
  });

  it('keeps every operator and promotion id in the registry', () => {
    const ids = new Set(Object.values(registry.operators));
    assert.equal(ids.size, Object.keys(registry.operators).length, 'registry ids unique');
    for (const o of operators) {
      assert.equal(registry.operators[`${o.countryCode}:${o.carrierKey}:${o.variant}`], o.operatorId, o.name);
    }
    const promotionIds = new Set(Object.values(registry.promotions));
    for (const p of promotions) assert.ok(promotionIds.has(p.promotionId), String(p.promotionId));
  });

  it('points every prefix at a base airtime operator of the same country', () => {
    for (const [iso, rows] of Object.entries(prefixes)) {
      for (const [prefix, id] of rows) {
        assert.match(prefix, /^\d+$/);
        const op = byId.get(id);
        assert.ok(op, `${iso} ${prefix} → ${id}`);
        assert.equal(op.countryCode, iso);
        assert.equal(op.variant, 'airtime');
        assert.ok(!op.data && !op.bundle && !op.pin && !op.emailAddressed);
      }
    }
  });

  it('describes amounts consistently', () => {
    for (const o of operators) {
      assert.match(o.destinationCurrencyCode, /^[A-Z]{3}$/, o.name);
      assert.match(o.internationalDiscount, PERCENT, o.name);
      assert.match(o.localDiscount, PERCENT, o.name);
      assert.ok(Number(o.internationalDiscount) <= 12 && Number(o.localDiscount) <= 12, o.name);
      assert.equal(o.logoUrls.length, 3, o.name);
      if (o.denominationType === 'RANGE') {
        assert.match(o.minAmountUsd ?? '', AMOUNT, o.name);
        assert.match(o.maxAmountUsd ?? '', AMOUNT, o.name);
        assert.ok(Number(o.minAmountUsd) < Number(o.maxAmountUsd), o.name);
        assert.deepEqual(o.fixedAmountsUsd, [], o.name);
        for (const s of o.suggestedAmountsUsd) {
          assert.ok(Number(s) >= Number(o.minAmountUsd) && Number(s) <= Number(o.maxAmountUsd), o.name);
        }
        if (o.supportsLocalAmounts) {
          assert.ok(Number(o.localMinAmount) < Number(o.localMaxAmount), o.name);
        } else {
          assert.equal(o.localMinAmount, null, o.name);
        }
      } else {
        assert.equal(o.denominationType, 'FIXED', o.name);
        assert.equal(o.minAmountUsd, null, o.name);
        assert.ok(o.fixedAmountsUsd.length > 0, o.name);
        assert.ok(
          o.fixedAmountsUsd.every((a) => AMOUNT.test(a) && Number(a) > 0),
          o.name,
        );
        assert.equal(new Set(o.fixedAmountsUsd).size, o.fixedAmountsUsd.length, o.name);
        for (const key of Object.keys(o.fixedAmountsDescriptions))
          assert.ok(o.fixedAmountsUsd.includes(key), o.name);
        if (o.supportsLocalAmounts) {
          assert.equal(o.localFixedAmounts.length, o.fixedAmountsUsd.length, o.name);
        } else {
          assert.deepEqual(o.localFixedAmounts, [], o.name);
        }
      }
      if (o.data || o.bundle) assert.ok(Object.keys(o.fixedAmountsDescriptions).length > 0, o.name);
    }
  });

  it('offers data, bundle and PIN variants besides airtime', () => {
    assert.ok(
      operators.some((o) => o.name === 'MTN Nigeria Data' && o.data && o.denominationType === 'FIXED'),
    );
    assert.ok(operators.filter((o) => o.bundle).length >= 20);
    assert.ok(operators.filter((o) => o.pin).length >= 5);
    assert.ok(operators.some((o) => o.supportsLocalAmounts && o.denominationType === 'RANGE'));
  });

  it('the main airtime product of an operator takes local amounts unless its currency is excluded', () => {
    for (const o of operators.filter((x) => !x.data && !x.bundle && !x.pin && !x.emailAddressed)) {
      assert.equal(
        o.supportsLocalAmounts,
        !LOCAL_AMOUNTS_EXCLUDED.has(o.destinationCurrencyCode),
        `${o.operatorId} ${o.name} ${o.destinationCurrencyCode}`,
      );
    }
  });

  it('has Nauta Cuba as the only e-mail addressed operator, with the two Nauta domains', () => {
    const email = operators.filter((o) => o.emailAddressed);
    assert.equal(email.length, 1);
    assert.equal(email[0].name, 'Nauta Cuba');
    assert.equal(email[0].countryCode, 'CU');
    assert.deepEqual([...email[0].emailDomains].sort(), ['nauta.co.cu', 'nauta.com.cu']);
    assert.ok(operators.some((o) => o.name === 'Cubacel Cuba' && !o.emailAddressed));
  });

  it('has a few hundred promotions in 2026, past, current and future', () => {
    assert.ok(promotions.length >= 200 && promotions.length <= 1000, String(promotions.length));
    const now = '2026-11-22 00:00:00';
    let past = 0;
    let current = 0;
    let future = 0;
    for (const p of promotions) {
      assert.ok(byId.has(p.operatorId), String(p.operatorId));
      assert.match(p.startDate, DATE);
      assert.match(p.endDate, DATE);
      assert.ok(p.startDate < p.endDate, String(p.promotionId));
      assert.ok(p.title && p.description && p.denominations, String(p.promotionId));
      if (p.endDate < now) past++;
      else if (p.startDate > now) future++;
      else current++;
    }
    assert.ok(past > 0 && current > 0 && future > 0, `${past}/${current}/${future}`);
  });
});

describe('scripts/build-operators.ts', () => {
  it('rebuilds byte-identical files from the same registry', { timeout: 180_000 }, () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'airgift-operators-'));
    try {
      copyFileSync(path.join(DATA, 'id-registry.json'), path.join(out, 'id-registry.json'));
      execFileSync(
        process.execPath,
        ['--import', 'tsx', path.join(ROOT, 'scripts', 'build-operators.ts'), '--out', out, '--quiet'],
        { cwd: ROOT, stdio: 'pipe' },
      );
      const files = readdirSync(DATA).filter((f) => f.endsWith('.json'));
      assert.ok(files.includes('operators.json') && files.includes('prefixes.json'));
      for (const f of files) {
        assert.ok(readFileSync(path.join(out, f)).equals(readFileSync(path.join(DATA, f))), `${f} differs`);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
