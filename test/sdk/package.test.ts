import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

// The package as a user gets it: built with the repo's TypeScript, installed under its name into a
// scratch project, imported by its `exports` map (JS and types), with nothing from Node in its source.
const ROOT = join(import.meta.dirname, '..', '..');
const SDK = join(ROOT, 'sdk');
const exec = promisify(execFile);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

describe('the @airgift/sdk package', () => {
  let project: string;
  let installed: string;

  before(async () => {
    project = await mkdtemp(join(tmpdir(), 'airgift-sdk-package-'));
    installed = join(project, 'node_modules', '@airgift', 'sdk');
    await mkdir(installed, { recursive: true });
    await exec(process.execPath, [tsc, '-p', SDK, '--outDir', join(installed, 'dist')], { cwd: ROOT });
    await cp(join(SDK, 'package.json'), join(installed, 'package.json'));
  });
  after(() => rm(project, { recursive: true, force: true }));

  test('package.json: ESM, exports with types and import, only dist published, no dependencies', async () => {
    const pkg = JSON.parse(await readFile(join(SDK, 'package.json'), 'utf8'));
    assert.equal(pkg.name, '@airgift/sdk');
    assert.equal(pkg.type, 'module');
    assert.deepEqual(pkg.exports['.'], { types: './dist/index.d.ts', import: './dist/index.js' });
    assert.deepEqual(pkg.files, ['dist']);
    assert.equal(pkg.engines.node, '>=20');
    assert.equal(pkg.dependencies, undefined);
    assert.equal(pkg.peerDependencies, undefined);
  });

  test('the source uses nothing of Node, so it runs in browsers too', async () => {
    for (const file of await readdir(join(SDK, 'src'))) {
      const text = await readFile(join(SDK, 'src', file), 'utf8');
      assert.doesNotMatch(text, /from ['"](node:|fs|path|crypto|https?|url|buffer)['"]/, file);
      assert.doesNotMatch(text, /\b(process|Buffer|require)\s*[.(]/, file);
      assert.doesNotMatch(text, /from ['"]\.\.\//, `${file} imports from outside sdk/src`);
    }
  });

  test('the built package imports by name and exposes the clients', async () => {
    const consumer = join(project, 'consumer.mjs');
    await writeFile(consumer, "export * from '@airgift/sdk';\n");
    const sdk = await import(pathToFileURL(consumer).href);
    for (const name of ['Airgift', 'GiftCards', 'Topups', 'Admin', 'AirgiftError', 'parseWithExactNumbers']) {
      assert.equal(typeof sdk[name], 'function', name);
    }
    const giftcards = new sdk.GiftCards({ clientId: 'id', clientSecret: 'secret', environment: 'sandbox' });
    assert.equal(giftcards.bases.baseUrl, 'https://localhost:8443/giftcards-sandbox');
    assert.equal(giftcards.bases.authUrl, 'https://localhost:8443/auth');
    const both = new sdk.Airgift({
      clientId: 'id',
      clientSecret: 'secret',
      environment: 'live',
      serverUrl: 'https://api.example.com/',
    });
    assert.equal(both.giftcards.bases.baseUrl, 'https://api.example.com/giftcards');
    assert.equal(both.topups.bases.baseUrl, 'https://api.example.com/topups');
    assert.equal(both.topups.bases.audience, 'https://api.example.com/topups');
  });

  test('a TypeScript project type-checks against the published declarations', async () => {
    await writeFile(
      join(project, 'use.ts'),
      `import { GiftCards, AirgiftError, type Product, type RedeemCode } from '@airgift/sdk';
const client = new GiftCards({ clientId: 'a', clientSecret: 'b', environment: 'live' });
export async function codes(id: number): Promise<string[]> {
  const cards: RedeemCode[] = await client.orders.cards(id);
  const product: Product = await client.products.get(1);
  const max: number | null = product.maxrecipientDenomination;
  try { await client.balance.get(); } catch (e) { if (e instanceof AirgiftError) return [e.errorCode, String(max)]; }
  return cards.map((c) => c.cardNumber + c.pinCode);
}
`,
    );
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          noEmit: true,
          lib: ['ES2022', 'DOM'],
          types: [],
        },
        files: ['use.ts'],
      }),
    );
    await writeFile(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
    await exec(process.execPath, [tsc, '-p', project], { cwd: project });
  });
});
