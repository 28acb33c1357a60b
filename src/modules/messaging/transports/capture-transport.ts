import { type Outgoing, permanent, type SendOutcome, type Transport } from './transport.ts';

/**
 * The sandbox's driver: nothing leaves the server. A message is "captured" (kept, rendered, shown
 * through the API and pages) unless its address is one of the sandbox values that force an outcome
 * (docs/delivery.md): an e-mail address at bounce.airgift.test bounces, a number ending 0000 fails.
 * Both fail for good, as a real bounce or an invalid number would.
 */
export const SANDBOX_BOUNCING_DOMAIN = 'bounce.airgift.test';
export const SANDBOX_FAILING_NUMBER_SUFFIX = '0000';

export function captureTransport(): Transport<Outgoing> {
  return {
    name: 'capture',
    async send(message): Promise<SendOutcome> {
      if (message.channel === 'email' && message.to.toLowerCase().endsWith(`@${SANDBOX_BOUNCING_DOMAIN}`)) {
        return permanent('550 5.1.1 sandbox: this address bounces');
      }
      if (message.channel === 'sms' && message.to.endsWith(SANDBOX_FAILING_NUMBER_SUFFIX)) {
        return permanent('sandbox: this number fails (submit_sm command_status 0x0000000b)');
      }
      return { ok: true, providerId: null };
    },
    async close() {},
  };
}
