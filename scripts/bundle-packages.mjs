// Which npm packages go into a bundle, shared by the production build (scripts/build.mjs) and the test
// files' bundles (test/harness/test-bundles.ts). Plain JavaScript: the build runs without a loader.
//
// npm packages stay imports from node_modules, except the pure ES-module ones of BUNDLED: Node's ES
// module loader resolves, reads and links each of their hundreds of files one by one (~300 ms of CPU
// at every start); bundled they are one more part of the bundle. CommonJS packages load much faster
// and are left alone, and so is PGlite, which finds its WebAssembly next to its own files.

const BUNDLED = new Set(['typebox', 'kysely', 'jose', '@fastify/type-provider-typebox']);

const packageName = (path) =>
  path
    .split('/')
    .slice(0, path.startsWith('@') ? 2 : 1)
    .join('/');

/** An esbuild plugin: every bare import (node:* and npm packages) is external, except BUNDLED's. */
export const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      BUNDLED.has(packageName(args.path)) ? undefined : { path: args.path, external: true },
    );
  },
};
