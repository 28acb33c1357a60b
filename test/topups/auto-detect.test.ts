import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Caller } from '../harness/client.ts';
import { startTestServer, type TestServer } from '../harness/server.ts';
import { assertOperator } from './helpers.ts';

// Auto-detect (endpoint 10) over real numbers of 40+ countries, each asked three ways: E.164 with '+',
// the calling code without '+', and the national form with its trunk prefix. The expected carrier is
// the one libphonenumber's carrier data assigns the range to.
const NUMBERS: Array<[string, string, string]> = [
  ['NG', '+2348031234567', 'MTN Nigeria'],
  ['NG', '+2348021234567', 'Airtel Nigeria'],
  ['IN', '+918123456789', 'Airtel India'],
  ['PH', '+639171234567', 'Globe Philippines'],
  ['GB', '+447400123456', 'Three United Kingdom'],
  ['DE', '+4915123456789', 'Telekom Germany'],
  ['FR', '+33612345678', 'SFR France'],
  ['KE', '+254712123456', 'Safaricom Kenya'],
  ['GH', '+233231234567', 'AirtelTigo Ghana'],
  ['ZA', '+27711234567', 'Vodacom South Africa'],
  ['EG', '+201001234567', 'Vodafone Egypt'],
  ['PK', '+923012345678', 'Jazz Pakistan'],
  ['BD', '+8801812345678', 'Robi Bangladesh'],
  ['ID', '+62812345678', 'Telkomsel Indonesia'],
  ['VN', '+84912345678', 'Vinaphone Vietnam'],
  ['TH', '+66812345678', 'TrueMove H Thailand'],
  ['MY', '+60123456789', 'Maxis Malaysia'],
  ['TR', '+905012345678', 'Türk Telekom Turkey'],
  ['AE', '+971501234567', 'Etisalat United Arab Emirates'],
  ['MA', '+212650123456', 'Maroc Telecom Morocco'],
  ['SN', '+221701234567', 'Expresso Senegal'],
  ['CM', '+237671234567', 'MTN Cameroon'],
  ['UG', '+256712345678', 'UTL Uganda'],
  ['TZ', '+255621234567', 'Halotel Tanzania'],
  ['ET', '+251911234567', 'Ethio Telecom Ethiopia'],
  ['PE', '+51912345678', 'Entel Peru'],
  ['JP', '+819012345678', 'au Japan'],
  ['KR', '+821020000000', 'SK Telecom South Korea'],
  ['CN', '+8613123456789', 'China Unicom'],
  ['RU', '+79123456789', 'MTS Russia'],
  ['UA', '+380501234567', 'Vodafone Ukraine'],
  ['PL', '+48512345678', 'Orange Poland'],
  ['NL', '+31612345678', 'KPN Netherlands'],
  ['HT', '+50934101234', 'Digicel Haiti'],
  ['JM', '+18762101234', 'Flow Jamaica'],
  ['DO', '+18092345678', 'Claro Dominican Republic'],
  ['NP', '+9779841234567', 'Nepal Telecom'],
  ['LK', '+94712345678', 'Mobitel Sri Lanka'],
  ['MX', '+522221234567', 'Telcel Mexico'],
];

let server: TestServer;
let c: Caller;
before(async () => {
  server = await startTestServer();
  c = await server.caller('topups');
});
after(() => server.close());

test(`auto-detect finds the operator of ${NUMBERS.length} real numbers, with and without the prefix`, async () => {
  const countries = new Set(NUMBERS.map(([iso]) => iso));
  assert.ok(countries.size >= 30);
  for (const [iso, e164, name] of NUMBERS) {
    const parsed = parsePhoneNumberFromString(e164);
    assert.ok(parsed);
    const forms = [e164, e164.slice(1), parsed.formatNational().replace(/\s/g, ''), parsed.formatNational()];
    for (const form of forms) {
      const a = await c.get(`/operators/auto-detect/phone/${encodeURIComponent(form)}/countries/${iso}`);
      assert.equal(a.status, 200, `${iso} ${form}: ${a.text}`);
      assert.equal(a.body.name, name, `${iso} ${form}`);
      assert.equal(a.body.country.isoName, iso);
    }
  }
});

test('the answer is a full operator; suggestedAmounts flags and includeBundles are honoured', async () => {
  const plain = await c.get('/operators/auto-detect/phone/08031234567/countries/NG');
  assertOperator(plain.body);
  assert.equal(plain.body.bundle, false);
  const flagged = await c.get(
    '/operators/auto-detect/phone/08031234567/countries/NG?suggestedAmounts=true&suggestedAmountsMap=true',
  );
  assert.ok(Array.isArray(flagged.body.suggestedAmounts));
  assert.equal(typeof flagged.body.suggestedAmountsMap, 'object');
  const bundles = await c.get('/operators/auto-detect/phone/08031234567/countries/NG?includeBundles=true');
  assert.equal(bundles.body.name, 'MTN Nigeria Bundles');
  assert.equal(bundles.body.bundle, true);
});

test('a number of another country is INVALID_PHONE_NUMBER for the country asked', async () => {
  const a = await c.get('/operators/auto-detect/phone/+447400123456/countries/NG');
  assert.equal(a.status, 400);
  assert.equal(a.body.errorCode, 'INVALID_PHONE_NUMBER');
});
