import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { SDK_ERROR_CODES_FILE, sdkErrorCodesSource } from '../../scripts/generate-sdk-error-codes.ts';
import { OAUTH_ERROR_CODES, SERVER_ERROR_CODES } from '../../sdk/src/index.ts';
import { ERROR_CODES } from '../../src/errors/error-codes.ts';
import { OAUTH_ERRORS } from '../../src/errors/oauth-error.ts';

// The SDK's copy of the error codes (it cannot import src/) is what the generator writes from the
// server's catalogue now: a code added to src/errors/ without rerunning the script fails here.
describe("the SDK's error codes", () => {
  test('sdk/src/error-codes.ts is up to date (npx tsx scripts/generate-sdk-error-codes.ts)', async () => {
    assert.equal(await readFile(SDK_ERROR_CODES_FILE, 'utf8'), sdkErrorCodesSource());
  });

  test('they are the catalogue, code for code', () => {
    assert.deepEqual([...SERVER_ERROR_CODES].sort(), Object.keys(ERROR_CODES).sort());
    assert.deepEqual([...OAUTH_ERROR_CODES].sort(), Object.keys(OAUTH_ERRORS).sort());
    assert.ok(OAUTH_ERROR_CODES.includes('invalid_scope'));
  });
});
