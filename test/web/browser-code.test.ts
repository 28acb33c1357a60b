import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { build } from 'esbuild';
import ts from 'typescript';

/**
 * The pages' browser code as src/modules/web/README.md lays it out: `ui/` and every `<app>/pages/`.
 * Each app's bundle holds browser code only (a schema imported as a value would bundle typebox and
 * the server's schemas into the page), the browser type check (`tsc -p src/modules/web`) reaches no
 * server file but the schema files whose types the pages use, and no page file is over 400 lines.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const WEB = join(ROOT, 'src', 'modules', 'web');
const BROWSER = /^src\/modules\/web\/(ui|[\w-]+\/pages)\/[\w-]+\.(ts|css)$/;
const APPS = ['dashboard', 'console'];

test("each app's bundle holds its browser code and uqr (the QR code), nothing of the server", async () => {
  const options = JSON.parse(await readFile(join(WEB, 'bundle-options.json'), 'utf8'));
  for (const app of APPS) {
    const result = await build({
      ...options,
      entryPoints: [join(WEB, app, 'pages', 'main.ts')],
      absWorkingDir: ROOT,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile?.inputs ?? {});
    assert.ok(inputs.includes(`src/modules/web/${app}/pages/main.ts`), inputs.join(', '));
    const others = inputs.filter((i) => !BROWSER.test(i) && !i.startsWith('node_modules/uqr/'));
    assert.deepEqual(others, [], `${app}'s app.js bundles ${others.join(', ')}`);
  }
});

test('the browser type check reaches no server file but the schema files (their types only)', () => {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(WEB, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) =>
        assert.fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    },
  );
  assert.ok(config);
  const files = ts
    .createProgram(config.fileNames, config.options)
    .getSourceFiles()
    .map((f) => relative(ROOT, f.fileName))
    .filter((f) => !f.startsWith('node_modules/'));
  assert.ok(files.some((f) => BROWSER.test(f)));
  // the error envelope's schema names the code catalogue's codes (a table without imports)
  const schemas = /-schemas\.ts$|^src\/http\/error-envelope\.ts$|^src\/errors\/error-codes\.ts$/;
  assert.deepEqual(
    files.filter((f) => !BROWSER.test(f) && !schemas.test(f)),
    [],
    'a schema file the pages use imports more than typebox and other schema files',
  );
});

test('one file per page: no file of the browser code is over 400 lines', async () => {
  const folders = [
    'ui',
    ...(await readdir(WEB, { withFileTypes: true }))
      .filter((e) => e.isDirectory() && e.name !== 'ui')
      .map((e) => join(e.name, 'pages')),
  ];
  let pages = 0;
  for (const folder of folders) {
    const names = await readdir(join(WEB, folder)).catch(() => []);
    for (const name of names.filter((n) => n.endsWith('.ts'))) {
      const lines = (await readFile(join(WEB, folder, name), 'utf8')).split('\n').length - 1;
      assert.ok(lines <= 400, `${folder}/${name}: ${lines} lines`);
      pages++;
    }
  }
  for (const app of APPS) assert.ok(folders.includes(join(app, 'pages')), `${app}/pages/ is missing`);
  assert.ok(pages > 20, `${pages} files`);
});
