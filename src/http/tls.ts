import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { isAbsolute, join, relative } from 'node:path';
import type Forge from 'node-forge';
import { lazyPackage } from '../lib/lazy-package.ts';

/**
 * TLS material. With TLS_CERT_FILE/TLS_KEY_FILE the operator's certificate is used. Otherwise a
 * development CA is made on first start (kept in DATA_DIR/tls, valid 10 years) and signs a server
 * certificate for localhost, the loopback addresses and every host of the configured bases; the
 * server certificate is re-issued when that host list changes. Trust the CA once:
 * `curl --cacert data/tls/ca.crt`, or `NODE_EXTRA_CA_CERTS=data/tls/ca.crt` for Node clients.
 */
/**
 * What the HTTPS server offers: TLS 1.2 and 1.3 only; on TLS 1.2 only ECDHE key exchange (forward
 * secrecy) with AEAD ciphers, Mozilla's "intermediate" profile without its DHE suites (so no CBC, no
 * SHA-1 MAC, no static RSA key exchange); TLS 1.3's suites are OpenSSL's defaults (all AEAD). ECDSA
 * and RSA pairs both, whichever key the certificate has; the client's preference decides.
 */
export const TLS_SERVER_OPTIONS = {
  minVersion: 'TLSv1.2' as const,
  ciphers: [
    'ECDHE-ECDSA-AES128-GCM-SHA256',
    'ECDHE-RSA-AES128-GCM-SHA256',
    'ECDHE-ECDSA-AES256-GCM-SHA384',
    'ECDHE-RSA-AES256-GCM-SHA384',
    'ECDHE-ECDSA-CHACHA20-POLY1305',
    'ECDHE-RSA-CHACHA20-POLY1305',
  ].join(':'),
};

/** Needed only to make a certificate, not at a restart that finds one. */
const loadForge = lazyPackage<typeof Forge>('node-forge');

/**
 * Where the development CA is when the server makes its own certificate (TLS on, no TLS_CERT_FILE),
 * as a reader would type it: relative to the working directory when inside it (`data/tls/ca.crt`,
 * the README's), else absolute; undefined when the operator's certificate is served.
 */
export function developmentCaFile(config: {
  tls: string;
  tlsCertFile?: string;
  dataDir: string;
}): string | undefined {
  if (config.tls !== 'on' || config.tlsCertFile !== undefined) return undefined;
  const file = join(config.dataDir, 'tls', 'ca.crt');
  const near = relative(process.cwd(), file);
  return near.startsWith('..') || isAbsolute(near) ? file : near;
}

export interface TlsFiles {
  key: string;
  cert: string;
  caPath: string | null;
  created: boolean;
}

export async function loadTls(opts: {
  dataDir: string;
  hosts: string[];
  certFile?: string;
  keyFile?: string;
}): Promise<TlsFiles> {
  if (opts.certFile && opts.keyFile) {
    return {
      cert: await readFile(opts.certFile, 'utf8'),
      key: await readFile(opts.keyFile, 'utf8'),
      caPath: null,
      created: false,
    };
  }
  const dir = join(opts.dataDir, 'tls');
  await mkdir(dir, { recursive: true });
  const paths = {
    caCert: join(dir, 'ca.crt'),
    caKey: join(dir, 'ca.key'),
    cert: join(dir, 'server.crt'),
    key: join(dir, 'server.key'),
    hosts: join(dir, 'server.hosts'),
  };
  const hosts = [
    ...new Set(['localhost', '127.0.0.1', '::1', ...opts.hosts.map((h) => h.replace(/^\[|\]$/g, ''))]),
  ].sort();
  let created = false;
  if (!existsSync(paths.caCert) || !existsSync(paths.caKey)) {
    const ca = makeCa();
    await writeFile(paths.caKey, ca.key, { mode: 0o600 });
    await writeFile(paths.caCert, ca.cert);
    created = true;
  }
  const wantedHosts = hosts.join(',');
  const haveHosts = existsSync(paths.hosts) ? await readFile(paths.hosts, 'utf8') : '';
  if (created || haveHosts !== wantedHosts || !existsSync(paths.cert) || !existsSync(paths.key)) {
    const leaf = makeServerCert(
      await readFile(paths.caCert, 'utf8'),
      await readFile(paths.caKey, 'utf8'),
      hosts,
    );
    await writeFile(paths.key, leaf.key, { mode: 0o600 });
    await writeFile(paths.cert, leaf.cert);
    await writeFile(paths.hosts, wantedHosts);
    created = true;
  }
  return {
    key: await readFile(paths.key, 'utf8'),
    cert: `${await readFile(paths.cert, 'utf8')}${await readFile(paths.caCert, 'utf8')}`,
    caPath: paths.caCert,
    created,
  };
}

function newKeyPair() {
  const forge = loadForge();
  // Node's native generator: node-forge's pure-JS RSA keygen takes seconds.
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privatePem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    publicKey: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
  };
}

/**
 * A random 127-bit certificate serial as hex, written as DER wants a positive INTEGER: its first
 * byte 0x01 to 0x7f, so no sign byte and no leading zero. (The older `00` + 15 random bytes was
 * refused by OpenSSL, "illegal padding", whenever the first random byte was 0x00: one start in
 * about 128 on a fresh data directory.)
 */
export function certificateSerial(): string {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0] & 0x7f || 0x01;
  return bytes.toString('hex');
}

function makeCa() {
  const forge = loadForge();
  const pair = newKeyPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = pair.publicKey;
  cert.serialNumber = certificateSerial();
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 10 * 365 * 86_400_000);
  const subject = [
    { name: 'commonName', value: 'airgift development CA' },
    { name: 'organizationName', value: 'airgift' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(pair.privatePem), forge.md.sha256.create());
  return { key: pair.privatePem, cert: forge.pki.certificateToPem(cert) };
}

function makeServerCert(caCertPem: string, caKeyPem: string, hosts: string[]) {
  const forge = loadForge();
  const caCert = forge.pki.certificateFromPem(caCertPem);
  const pair = newKeyPair();
  const cert = forge.pki.createCertificate();
  cert.publicKey = pair.publicKey;
  cert.serialNumber = certificateSerial();
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  // Browsers refuse leaf certificates valid for more than 398 days.
  cert.validity.notAfter = new Date(Date.now() + 397 * 86_400_000);
  cert.setSubject([{ name: 'commonName', value: hosts.find((h) => !isIP(h)) ?? 'localhost' }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: hosts.map((h) => (isIP(h) ? { type: 7, ip: h } : { type: 2, value: h })),
    },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(caKeyPem), forge.md.sha256.create());
  return { key: pair.privatePem, cert: forge.pki.certificateToPem(cert) };
}
