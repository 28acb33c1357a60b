import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../lib/project-root.ts';
import type { RecordedExample } from './openapi.ts';

/**
 * The recorded example of each operation (`METHOD path` -> request and answer), written by
 * `npm run openapi:examples` from a real in-process app and committed next to this file. The
 * document shows them; `test/http/openapi-examples.test.ts` keeps them valid against the schemas.
 *
 * @example
 * loadRecordedExamples('giftcards')['GET /products/{productId}'].response.body.productId // 11
 */
export const EXAMPLES_DIR = join(PROJECT_ROOT, 'src', 'http', 'openapi-examples');

export function loadRecordedExamples(kind: string): Record<string, RecordedExample> {
  const file = join(EXAMPLES_DIR, `${kind}.json`);
  if (!existsSync(file)) return {};
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, RecordedExample>;
}
