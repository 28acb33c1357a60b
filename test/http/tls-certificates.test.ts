import assert from 'node:assert/strict';
import { test } from 'node:test';
import { certificateSerial } from '../../src/http/tls.ts';

// A serial with a leading zero byte before a byte under 0x80 is not DER: OpenSSL refuses the whole
// certificate ("illegal padding") and the server does not start. The old serial did that once in
// about 256 draws, so 20,000 draws find it with near certainty.
test('every development certificate serial is a minimal positive DER integer of 16 bytes', () => {
  for (let i = 0; i < 20_000; i++) {
    const serial = certificateSerial();
    assert.match(serial, /^[0-9a-f]{32}$/);
    const first = Number.parseInt(serial.slice(0, 2), 16);
    assert.ok(first >= 0x01 && first <= 0x7f, `serial ${serial} starts with a sign or padding byte`);
  }
});
