import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SETTINGS } from '../src/config.ts';

/**
 * docs/configuration.md, generated from `SETTINGS` in src/config.ts (`npm run docs:configuration`), so
 * the table of settings is kept in one place; test/app/config.test.ts fails when the file is stale.
 * The descriptions are Markdown whose links are relative to docs/.
 */
export const CONFIGURATION_DOC = join(import.meta.dirname, '..', 'docs', 'configuration.md');

/** How a default reads in the table: no default at all, an empty one, or the value. */
export function defaultCell(def: string | undefined): string {
  if (def === undefined) return '(unset)';
  if (def === '') return '(none)';
  return `\`${def}\``;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

export function configurationDocument(): string {
  const rows = Object.values(SETTINGS).map(
    (s) => `| \`${s.env}\` | ${defaultCell(s.default)} | ${cell(s.description)} |`,
  );
  return `# Configuration

<!-- Generated from SETTINGS in src/config.ts by \`npm run docs:configuration\`: change the text there. -->

airgift reads these environment variables once, at start. A bad value stops the start with one
message naming every variable at fault. A default may refer to a setting above it (\`$PORT\`,
\`$PUBLIC_URL\`); "(unset)" means no value, and the meaning says what happens then.

| variable | default | meaning |
|---|---|---|
${rows.join('\n')}

Checked together at start, besides each value on its own:

- \`TLS=off\` needs \`TRUSTED_PROXIES\`: only requests a trusted proxy forwards as HTTPS
  (\`X-Forwarded-Proto: https\`) are served; plain HTTP from anyone else gets the 400 that says so.
- \`TLS_CERT_FILE\` and \`TLS_KEY_FILE\` go together.
- \`TOKEN_SIGNING_KEY\` has at least 32 characters; \`CARD_CODES_KEY\` is 32 bytes, base64-encoded
  (\`openssl rand -base64 32\`).
- \`SMTP_DKIM_DOMAIN\`, \`SMTP_DKIM_SELECTOR\` and \`SMTP_DKIM_KEY_FILE\` go together.

The keys a deployment must keep (\`ADMIN_KEY\`, \`TOKEN_SIGNING_KEY\`, \`CARD_CODES_KEY\`, or their files in
\`DATA_DIR\`), and how several servers share them, are in [operations.md](operations.md). The
\`airgift\` command reads its own variables (\`AIRGIFT_URL\`, \`AIRGIFT_ADMIN_URL\`, \`AIRGIFT_ADMIN_KEY\`,
\`AIRGIFT_CA_FILE\`, \`DATA_DIR\`): see [cli.md](cli.md).
`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(CONFIGURATION_DOC, configurationDocument());
  process.stdout.write(`wrote ${CONFIGURATION_DOC}\n`);
}
