import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { AppError } from '../../errors/error-codes.ts';

/**
 * The SSRF rule of webhook targets: an endpoint must be an `https:` URL whose host is not a private,
 * loopback, link-local, shared (CGNAT), multicast or unspecified address, checked when the endpoint is
 * added (a literal address or `localhost`) and again at every connection, on the addresses DNS gives
 * then (`guardedLookup`, so a name that later resolves inward is refused too). `WEBHOOKS_ALLOW_PRIVATE`
 * lifts the address rule (development, tests).
 *
 * @example
 * checkTargetUrl('https://hooks.example.com/airgift', { allowPrivate: false }); // ok
 * checkTargetUrl('https://127.0.0.1/hook', { allowPrivate: false });            // throws INVALID_REQUEST
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** True for an address a webhook must not reach (IPv4-mapped IPv6 is judged as its IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const refuse = (issue: string) =>
  new AppError('INVALID_REQUEST', `The webhook URL is not allowed: ${issue}`, [{ field: 'url', issue }]);

/** Checks an endpoint URL when it is added; returns it normalised. */
export function checkTargetUrl(raw: string, options: { allowPrivate: boolean }): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('not a URL');
  }
  if (url.protocol !== 'https:') throw refuse('webhooks are sent over https only');
  if (url.username || url.password) throw refuse('no credentials in the URL');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate) {
    if (host === 'localhost' || host.endsWith('.localhost')) throw refuse('a loopback host');
    if (isIP(host) && isPrivateAddress(host)) throw refuse('a private or loopback address');
  }
  return url.toString();
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for `https.request` that refuses private addresses at connection time (the check that
 * counts: it is made on the address actually connected to).
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      const bad = allowPrivate ? undefined : list.find((a) => isPrivateAddress(a.address));
      if (bad) {
        const refused = new Error(
          `webhook target ${hostname} resolves to a private address (${bad.address})`,
        );
        return callback(Object.assign(refused, { code: 'EPRIVATEADDRESS' }), []);
      }
      if ((options as { all?: boolean }).all) return callback(null, list);
      return callback(null, list[0].address, list[0].family);
    });
  };
}
