import type { Plugin } from 'esbuild';

/** The types of bundle-packages.mjs (plain JavaScript: the production build runs without a loader). */
export declare const externalPackages: Plugin;
