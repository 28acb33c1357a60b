import { type Command, Option } from 'commander';
import type { Environment, WebhookDelivery, WebhookEndpoint } from '../../sdk/src/index.ts';
import { environmentOption, type JsonOption, leaf, type Run, wholeNumber } from './command-parts.ts';

/** Endpoints as aligned text; a disabled one says so (the account must be told). */
function endpointsText(items: WebhookEndpoint[]): string {
  if (items.length === 0) return 'no webhook endpoints';
  return items
    .map((e) => {
      const state = e.disabledAt
        ? `DISABLED ${e.disabledAt}: ${e.disabledReason}`
        : e.failingSince
          ? `failing since ${e.failingSince}`
          : 'ok';
      return `${String(e.id).padEnd(5)} account ${e.accountId} ${e.environment.padEnd(7)} ${e.url}  [${e.events.join(',')}]  ${state}`;
    })
    .join('\n');
}

function deliveriesText(items: WebhookDelivery[]): string {
  if (items.length === 0) return 'no deliveries';
  return items
    .map((d) => {
      const last = d.log.at(-1);
      const answer = last ? `${last.statusCode ?? last.error} in ${last.latencyMs} ms` : 'not tried yet';
      const next = d.nextAttemptAt ? `, next ${d.nextAttemptAt}` : '';
      return `${String(d.id).padEnd(6)} ${d.eventId.padEnd(12)} ${d.type.padEnd(26)} ${d.status.padEnd(9)} attempts ${d.attempts}: ${answer}${next}`;
    })
    .join('\n');
}

const list = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** `webhooks add|list|remove|deliveries|replay|threshold`: an account's webhook endpoints. */
export function addWebhookCommands(program: Command, run: Run): void {
  const webhooks = program
    .command('webhooks')
    .description("an account's webhook endpoints and their deliveries");

  leaf(webhooks, 'add', 'a new endpoint; prints its signing secret, shown this once')
    .requiredOption('--account <id>', 'account id', wholeNumber)
    .addOption(environmentOption('which environment the events come from').makeOptionMandatory())
    .requiredOption('--url <url>', 'https URL that receives the POSTs')
    .requiredOption('--events <patterns>', 'comma-separated: giftcard.order.*,topup.*,balance.low,...', list)
    .action((o: JsonOption & { account: number; environment: Environment; url: string; events: string[] }) =>
      run(o.json, async (admin) => {
        const added = await admin.webhooks.add({
          accountId: o.account,
          environment: o.environment,
          url: o.url,
          events: o.events,
        });
        return {
          json: added,
          text: `endpoint ${added.id} added\nsigning secret (shown once): ${added.secret}`,
        };
      }),
    );

  leaf(webhooks, 'list', 'the endpoints, with their state (failing, disabled)')
    .option('--account <id>', 'only this account', wholeNumber)
    .addOption(
      new Option('--environment <environment>', 'only this environment').choices(['live', 'sandbox']),
    )
    .action((o: JsonOption & { account?: number; environment?: Environment }) =>
      run(o.json, async (admin) => {
        const answer = await admin.webhooks.list({ accountId: o.account, environment: o.environment });
        return { json: answer, text: endpointsText(answer.items) };
      }),
    );

  leaf(webhooks, 'remove', 'removes an endpoint; its pending deliveries end')
    .argument('<id>', 'endpoint id', wholeNumber)
    .action((id: number, o: JsonOption) =>
      run(o.json, async (admin) => {
        const removed = await admin.webhooks.remove(id);
        return { json: removed, text: `endpoint ${removed.id} removed` };
      }),
    );

  leaf(webhooks, 'deliveries', "an endpoint's delivery log, newest first")
    .argument('<id>', 'endpoint id', wholeNumber)
    .option('--page <n>', 'page number', wholeNumber, 1)
    .option('--size <n>', 'deliveries per page', wholeNumber, 20)
    .action((id: number, o: JsonOption & { page: number; size: number }) =>
      run(o.json, async (admin) => {
        const page = await admin.webhooks.deliveries(id, { page: o.page, size: o.size });
        return { json: page, text: deliveriesText(page.items) };
      }),
    );

  leaf(webhooks, 'replay', "sends a delivery's event again (same webhook-id)")
    .argument('<deliveryId>', 'delivery id', wholeNumber)
    .action((id: number, o: JsonOption) =>
      run(o.json, async (admin) => {
        const replayed = await admin.webhooks.replay(id);
        return { json: replayed, text: `delivery ${replayed.id} of ${replayed.eventId} due now` };
      }),
    );

  leaf(webhooks, 'threshold', 'balance.low fires when a debit takes the balance under this amount')
    .requiredOption('--account <id>', 'account id', wholeNumber)
    .addOption(environmentOption().makeOptionMandatory())
    .requiredOption('--amount <amount>', "an amount in the account's currency, or 'none'")
    .action((o: JsonOption & { account: number; environment: Environment; amount: string }) =>
      run(o.json, async (admin) => {
        const answer = await admin.webhooks.balanceThreshold(o.account, {
          environment: o.environment,
          threshold: o.amount === 'none' ? null : o.amount,
        });
        return {
          json: answer,
          text:
            answer.thresholds.map((t) => `${t.environment}: balance.low under ${t.threshold}`).join('\n') ||
            'no threshold',
        };
      }),
    );
}
