import { existsSync, readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Upstream, UpstreamProduct } from '../../sdk/src/index.ts';
import { type JsonOption, leaf, productArgument, type Run } from './command-parts.ts';
import { CliError } from './connect.ts';

/** One upstream as text: settings, health, balance (never the secret). */
function upstreamText(u: Upstream): string {
  const h = u.health;
  const balance = u.balance
    ? `${u.balance.balance} ${u.balance.currencyCode}`
    : `unknown (${u.balanceError})`;
  return [
    `${u.product}`,
    `  url               ${u.url}`,
    `  auth url          ${u.authUrl}`,
    `  client id         ${u.clientId}`,
    `  CA                ${u.caConfigured ? 'configured' : 'system'}`,
    `  margin            ${u.marginPercent}%`,
    `  last sync         ${u.lastSyncAt ?? 'never'}`,
    `  balance           ${balance}`,
    `  last success      ${h.lastSuccessAt ?? 'none'}`,
    `  last error        ${h.lastError ? `${h.lastError} at ${h.lastErrorAt}` : 'none'}`,
    ...(h.insufficientBalance
      ? [`  INSUFFICIENT BALANCE at the upstream since ${h.insufficientBalanceAt}`]
      : []),
  ].join('\n');
}

/** `upstream set|show|remove`: the upstream that fulfils a product's live orders. */
export function addUpstreamCommands(program: Command, run: Run): void {
  const upstream = program
    .command('upstream')
    .description("the upstream service that fulfils a product's live orders");

  leaf(upstream, 'set', "set (or replace) a product's upstream; the secret is stored encrypted")
    .addArgument(productArgument())
    .requiredOption('--url <url>', "the upstream's product base, e.g. https://giftcards.example.com")
    .requiredOption('--auth-url <url>', "the upstream's token service base, e.g. https://auth.example.com")
    .requiredOption('--client-id <id>', 'the client id of our account at the upstream')
    .requiredOption('--client-secret <secret>', 'its client secret (never printed back)')
    .option('--ca-file <path>', "PEM CA the upstream's TLS certificate is checked against")
    .option('--margin-percent <percent>', 'our margin on the upstream prices, percent', '0')
    .action(
      (
        product: UpstreamProduct,
        o: JsonOption & {
          url: string;
          authUrl: string;
          clientId: string;
          clientSecret: string;
          caFile?: string;
          marginPercent: string;
        },
      ) =>
        run(o.json, async (admin) => {
          if (o.caFile !== undefined && !existsSync(o.caFile))
            throw new CliError(`${o.caFile} does not exist`);
          const u = await admin.upstreams.set(product, {
            url: o.url,
            authUrl: o.authUrl,
            clientId: o.clientId,
            clientSecret: o.clientSecret,
            caPem: o.caFile === undefined ? null : readFileSync(o.caFile, 'utf8'),
            marginPercent: o.marginPercent,
          });
          return { json: u, text: upstreamText(u) };
        }),
    );

  leaf(upstream, 'show', 'the configured upstreams: settings, health, and their balance read now').action(
    (o: JsonOption) =>
      run(o.json, async (admin) => {
        const r = await admin.upstreams.show();
        return {
          json: r,
          text: r.items.length === 0 ? 'no upstream configured' : r.items.map(upstreamText).join('\n\n'),
        };
      }),
  );

  leaf(upstream, 'remove', "remove a product's upstream: its live orders are refused again")
    .addArgument(productArgument())
    .action((product: UpstreamProduct, o: JsonOption) =>
      run(o.json, async (admin) => {
        const r = await admin.upstreams.remove(product);
        return { json: r, text: `removed the ${r.product} upstream` };
      }),
    );
}
