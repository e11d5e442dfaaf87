/**
 * The TSA's key and certificate: from configuration (TSA_KEY, TSA_CERT: PEM), or made at first start
 * in embedded mode into DATA_DIR: an ECDSA P-256 key (OpenSSL 3.0 cannot verify Ed25519 tokens) and a
 * self-signed certificate whose extendedKeyUsage is timeStamping, critical (RFC 3161 §2.3; OpenSSL
 * refuses the token otherwise).
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, randomBytes, sign, X509Certificate } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { der, octets, oid, seq, set, uint, utcTime, utf8 } from './der.js';

export const TSA_KEY_FILE = 'tsa-key.pem';
export const TSA_CERT_FILE = 'tsa-cert.pem';

export interface TsaIdentity {
  readonly key: KeyObject;
  readonly cert: X509Certificate;
  readonly certDer: Buffer;
  readonly certPem: string;
}

const ECDSA_SHA256 = '1.2.840.10045.4.3.2';
const SHA256_RSA = '1.2.840.113549.1.1.11';

/** The signature AlgorithmIdentifier for `key` with SHA-256. */
export function signatureAlgorithm(key: KeyObject): { oid: string; der: Buffer } {
  if (key.asymmetricKeyType === 'ec') return { oid: ECDSA_SHA256, der: seq(oid(ECDSA_SHA256)) };
  if (key.asymmetricKeyType === 'rsa') return { oid: SHA256_RSA, der: seq(oid(SHA256_RSA), der(0x05)) };
  throw new Error(`TSA_KEY: ${key.asymmetricKeyType ?? 'this'} keys are not supported (use ECDSA P-256 or RSA)`);
}

export function identityOf(keyPem: string, certPem: string): TsaIdentity {
  const key = createPrivateKey(keyPem);
  signatureAlgorithm(key);
  const cert = new X509Certificate(certPem);
  if (!cert.checkPrivateKey(key)) throw new Error('TSA_CERT does not belong to TSA_KEY');
  return { key, cert, certDer: cert.raw, certPem: cert.toString() };
}

/** A self-signed TSA certificate for `key`, valid for `years`. */
export function selfSignedTsaCert(key: KeyObject, commonName: string, now: Date, years = 10): string {
  const alg = signatureAlgorithm(key);
  const name = seq(set(seq(oid('2.5.4.3'), utf8(commonName))));
  const notAfter = new Date(now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + years);
  const spki = createPublicKey(key).export({ type: 'spki', format: 'der' });
  const critical = der(0x01, Buffer.from([0xff]));
  const extensions = seq(
    seq(oid('2.5.29.15'), critical, octets(der(0x03, Buffer.from([0x07, 0x80])))), // keyUsage: digitalSignature
    seq(oid('2.5.29.37'), critical, octets(seq(oid('1.3.6.1.5.5.7.3.8')))), // extendedKeyUsage: timeStamping
  );
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  const tbs = seq(
    der(0xa0, uint(Buffer.from([2]))),
    uint(serial),
    alg.der,
    name,
    seq(utcTime(now), utcTime(notAfter)),
    name,
    spki,
    der(0xa3, extensions),
  );
  const signature = sign('sha256', tbs, key);
  const certDer = seq(tbs, alg.der, der(0x03, Buffer.from([0]), signature));
  return new X509Certificate(certDer).toString();
}

/** Configured key and certificate, else the ones in DATA_DIR, made at first start when allowed. */
export async function loadOrCreateTsa(opts: {
  keyPem: string | undefined;
  certPem: string | undefined;
  dataDir: string;
  mayCreate: boolean;
  commonName: string;
}): Promise<{ identity: TsaIdentity; created: boolean }> {
  if (opts.keyPem || opts.certPem) {
    if (!opts.keyPem || !opts.certPem) throw new Error('TSA_KEY and TSA_CERT go together');
    return { identity: identityOf(await pemOrFile(opts.keyPem), await pemOrFile(opts.certPem)), created: false };
  }
  const keyFile = path.join(opts.dataDir, TSA_KEY_FILE);
  const certFile = path.join(opts.dataDir, TSA_CERT_FILE);
  try {
    return { identity: identityOf(await readFile(keyFile, 'utf8'), await readFile(certFile, 'utf8')), created: false };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (!opts.mayCreate) throw new Error('TSA_KEY and TSA_CERT are required in distributed mode');
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const certPem = selfSignedTsaCert(privateKey, opts.commonName, new Date());
  await mkdir(opts.dataDir, { recursive: true });
  try {
    await writeFile(keyFile, keyPem, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return { identity: identityOf(await readFile(keyFile, 'utf8'), await readFile(certFile, 'utf8')), created: false };
  }
  await writeFile(certFile, certPem, { mode: 0o644 });
  return { identity: identityOf(keyPem, certPem), created: true };
}

/** A PEM given inline, or a path to a PEM file. */
async function pemOrFile(value: string): Promise<string> {
  return value.includes('-----BEGIN') ? value : readFile(value, 'utf8');
}
