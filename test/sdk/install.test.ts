import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { CA_FILE } from '../harness/client.ts';
import { type ServerProcess, startServerProcess } from '../harness/server-process.ts';

// The SDK installed the two ways its README gives, into scratch projects outside the repository,
// with npm offline (the package has no runtime dependencies): `npm install <sdk folder>` (built by
// its `prepare` script with the repository's TypeScript) and the tarball of `npm pack`. Each runs a
// program against a real server process: the folder install runs the README's quick start block
// exactly as written there, the tarball install a program of its own.
const ROOT = join(import.meta.dirname, '..', '..');
const SDK = join(ROOT, 'sdk');
const exec = promisify(execFile);

/** A port free right now, so that the server's PUBLIC_URL (its token audiences) can name it. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The first ```js block after the "## Quick start" heading of sdk/README.md. */
export async function readmeQuickStart(): Promise<string> {
  const readme = await readFile(join(SDK, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const block = /```js\n([\s\S]*?)```/.exec(section);
  assert.ok(block, 'sdk/README.md has a ```js block under ## Quick start');
  return block[1]!;
}

describe('installing @airgift/sdk', () => {
  let server: ServerProcess;
  let scratch: string;
  let serverUrl: string;

  const npm = (args: string[], cwd: string) =>
    exec('npm', [...args, '--offline', '--no-audit', '--no-fund', '--cache', join(scratch, 'npm-cache')], {
      cwd,
      timeout: 120_000,
    });

  async function project(name: string): Promise<string> {
    const dir = join(scratch, name);
    await exec('mkdir', ['-p', dir]);
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
    return dir;
  }

  async function run(dir: string, file: string) {
    return exec(process.execPath, [file], {
      cwd: dir,
      timeout: 60_000,
      env: {
        PATH: process.env.PATH,
        NODE_EXTRA_CA_CERTS: CA_FILE,
        AIRGIFT_URL: serverUrl,
        AIRGIFT_CLIENT_ID: server.credentials.clientId,
        AIRGIFT_CLIENT_SECRET: server.credentials.clientSecret,
      },
    });
  }

  before(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'airgift-sdk-install-'));
    const port = await freePort();
    serverUrl = `https://localhost:${port}`;
    server = await startServerProcess({ PORT: String(port), PUBLIC_URL: serverUrl, LOG_LEVEL: 'info' });
  });
  after(async () => {
    await server?.cleanup();
    await rm(scratch, { recursive: true, force: true });
  });

  test("npm install <sdk folder> builds it (prepare) and the README's quick start runs as written", async () => {
    // A stale build must not pass for a fresh one: the install has to make dist/ itself.
    await rm(join(SDK, 'dist'), { recursive: true, force: true });
    const dir = await project('from-folder');
    await npm(['install', SDK], dir);
    assert.ok(
      existsSync(join(dir, 'node_modules', '@airgift', 'sdk', 'dist', 'index.js')),
      'dist built on install',
    );
    await writeFile(join(dir, 'quickstart.mjs'), await readmeQuickStart());
    const { stdout } = await run(dir, 'quickstart.mjs');
    assert.match(stdout, /^Balance: [\d.]+ USD$/m);
    assert.match(stdout, /^Gift card order \d+: SUCCESSFUL, code \S+, PIN \S+$/m);
    assert.match(stdout, /^Top-up \d+: SUCCESSFUL, [\d.]+ NGN via .+$/m);
    assert.match(stdout, /^\d+ gift card products for the US$/m);
    const count = Number(/^(\d+) gift card products/m.exec(stdout)![1]);
    assert.ok(count > 100, `${count} US products: more than one page of 100 was walked`);
  });

  test('npm pack makes a tarball of dist/ that installs offline and runs', async () => {
    const packed = join(scratch, 'packed');
    await exec('mkdir', ['-p', packed]);
    await npm(['pack', '--pack-destination', packed], SDK);
    const [tarball] = (await readdir(packed)).filter((f) => f.endsWith('.tgz'));
    assert.ok(tarball, 'npm pack wrote a tarball');
    const { stdout: listing } = await exec('tar', ['-tzf', join(packed, tarball)]);
    const files = listing.trim().split('\n');
    assert.ok(files.includes('package/dist/index.js') && files.includes('package/dist/index.d.ts'));
    assert.deepEqual(
      files.filter((f) => !f.startsWith('package/dist/')).sort(),
      ['package/README.md', 'package/package.json'],
      'only dist/, the README and package.json are published',
    );

    const dir = await project('from-tarball');
    await npm(['install', join(packed, tarball)], dir);
    await writeFile(
      join(dir, 'program.mjs'),
      `import { Topups, AirgiftError } from '@airgift/sdk';
const topups = new Topups({
  clientId: process.env.AIRGIFT_CLIENT_ID,
  clientSecret: process.env.AIRGIFT_CLIENT_SECRET,
  environment: 'sandbox',
  serverUrl: process.env.AIRGIFT_URL,
});
const page = await topups.operators.list({ size: 3 });
console.log('operators', page.content.length, page.totalElements > 3, page.requestId !== null);
const error = await topups.operators.get(999999999).catch((e) => e);
console.log('error', error instanceof AirgiftError, error.status, error.errorCode, error.requestId !== null);
`,
    );
    const { stdout } = await run(dir, 'program.mjs');
    assert.match(stdout, /^operators 3 true true$/m);
    assert.match(stdout, /^error true 404 \S+ true$/m);
  });

  test('the start banner prints absolute paths for a DATA_DIR outside the working directory', () => {
    // The harness's DATA_DIR is a temporary directory; `../../tmp/...` would be no use to paste.
    const saved = /saved in (\S+):/.exec(server.output());
    assert.ok(saved, server.output());
    assert.equal(saved[1], join(server.dataDir, 'sandbox-credentials.json'));
  });
});
