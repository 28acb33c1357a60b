import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { createHttpClient } from '../harness/client.ts';
import { CACHE_DIR } from '../harness/templates.ts';

/**
 * `npm start` runs the production bundle (scripts/build.mjs → dist/main.mjs), not the TypeScript
 * sources the other suites start. This proves the bundle is complete: built from a clean state, it
 * starts on a NEW embedded database (made by initdb in a child process, src/db/pglite.ts), finds
 * its seed data and migrations from the project root, and answers, the pages' front-end included
 * (bundled by the build into main.mjs).
 */
const ROOT = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);

test('the production bundle starts on a new embedded database and answers', {
  timeout: 120_000,
}, async () => {
  const outdir = join(CACHE_DIR, `dist-${process.pid}`);
  const dataDir = await mkdtemp(join(tmpdir(), 'airgift-bundle-'));
  await run(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--force', '--outdir', outdir]);
  assert.ok(existsSync(join(outdir, 'main.mjs')), 'the build wrote main.mjs');
  const { NODE_TEST_CONTEXT: _, DATABASE_URL: __, ...env } = process.env;
  const child = spawn(process.execPath, [join(outdir, 'main.mjs')], {
    cwd: tmpdir(), // not the checkout: the bundle must find its files by itself
    env: {
      ...env,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'https://localhost',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => {
    output += c;
  });
  child.stderr.on('data', (c) => {
    output += c;
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner:\n${output}`)), 100_000);
      child.stdout.on('data', () => {
        const m = /listening on port (\d+)[\s\S]*Get a token/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`exited with ${code}:\n${output}`));
      });
    });
    const http = createHttpClient(
      `https://127.0.0.1:${port}`,
      await readFile(join(dataDir, 'tls', 'ca.crt'), 'utf8'),
    );
    try {
      assert.equal((await http.get('/ready')).status, 200);
      const countries = await http.get('/giftcards-sandbox/countries', {
        headers: { authorization: 'Bearer nothing' },
      });
      assert.equal(countries.status, 401, 'the bases are mounted');
      // The pages' front-end comes from the build (scripts/build.mjs), not from an esbuild at start.
      for (const page of ['dashboard', 'console']) {
        const script = await http.get(`/${page}/app.js`);
        assert.equal(script.status, 200, `${page}/app.js`);
        assert.match(String(script.headers['content-type']), /^text\/javascript/);
        assert.ok(script.text.length > 1000, `${page}/app.js is the bundled front-end`);
      }
    } finally {
      await http.close();
    }
    assert.ok(existsSync(join(dataDir, 'pgdata', 'PG_VERSION')), 'the data directory was made');
    assert.deepEqual(
      (await readdir(dataDir)).filter((f) => f.includes('initdb')),
      [],
      'no scratch directory of the initdb child is left',
    );
  } finally {
    child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
    await rm(outdir, { recursive: true, force: true });
  }
});
