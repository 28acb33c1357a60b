#!/usr/bin/env node
// The `airgift` command (npx airgift ...): loads the TypeScript CLI through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
