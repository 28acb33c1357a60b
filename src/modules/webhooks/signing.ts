import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the signed content is
 * `${webhook-id}.${webhook-timestamp}.${body}`, the key is the base64 part of the endpoint's
 * `whsec_…` secret, and `webhook-signature` is `v1,` + base64(HMAC-SHA256). The `standardwebhooks`
 * verifiers of every language accept it.
 *
 * @example
 * const secret = newSigningSecret();                      // 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
 * signatureOf(secret, 'evt_42', 1767225600, '{"type":…}'); // 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4='
 */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The headers of one attempt of one event (`webhook-id` is the same for every attempt and replay). */
export function signedHeaders(secret: string, eventId: number, at: Date, body: string) {
  const id = `evt_${eventId}`;
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureOf(secret, id, timestamp, body),
  };
}
