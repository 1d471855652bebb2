// The origin's self-signed certificate kept in a directory (--cert-dir), so a restarted origin presents the same
// certificate and a player that pinned its SHA-256 (WebTransport serverCertificateHashes) reconnects without
// fetching a new hash. A missing, unreadable, soon-expiring or wrong-name certificate is replaced by a new one.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createHash, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { generateSelfSignedCert } from '@pcc-stream/quic';
import { log } from '../log.ts';

export const CERT_FILE = 'cert.pem';
export const KEY_FILE = 'key.pem';
/** A stored certificate with less validity left than this is replaced: a restart must not serve one that expires
 *  during the sessions it is about to accept. */
const MIN_REMAINING_MS = 24 * 3600 * 1000;

export interface PersistedCert {
  certPem: string;
  keyPem: string;
  certSha256Hex: string;
  /** True when this call made a new certificate (none usable was stored). */
  created: boolean;
}

/** The certificate's SHA-256 over its DER bytes, hex: what WebTransport's serverCertificateHashes pins. */
export function certFingerprintHex(cert: X509Certificate): string {
  return createHash('sha256').update(cert.raw).digest('hex');
}

function usable(certPem: string, names: readonly string[], nowMs: number): X509Certificate | null {
  try {
    const cert = new X509Certificate(certPem);
    if (Date.parse(cert.validTo) - nowMs < MIN_REMAINING_MS || Date.parse(cert.validFrom) > nowMs) return null;
    const covers = (name: string) => (isIP(name) ? cert.checkIP(name) !== undefined : cert.checkHost(name) !== undefined);
    return names.every(covers) ? cert : null;
  } catch {
    return null;
  }
}

function writeAtomically(path: string, text: string, mode: number): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

/** The certificate in `dir` if it is usable for `names`, else a new one (valid `validDays`) written there. */
export function loadOrCreateCert(dir: string, names: readonly string[], validDays: number, nowMs = Date.now()): PersistedCert {
  const certPath = join(dir, CERT_FILE);
  const keyPath = join(dir, KEY_FILE);
  if (existsSync(certPath) && existsSync(keyPath)) {
    const certPem = readFileSync(certPath, 'utf8');
    const cert = usable(certPem, names, nowMs);
    if (cert) {
      return { certPem, keyPem: readFileSync(keyPath, 'utf8'), certSha256Hex: certFingerprintHex(cert), created: false };
    }
    log('info', 'origin.cert_replaced', { dir, why: 'expiring, unreadable or not for these names', names });
  }
  mkdirSync(dir, { recursive: true });
  const made = generateSelfSignedCert([...names], validDays);
  // Key first: a crash between the two writes leaves a key without its certificate, which the next start replaces.
  writeAtomically(keyPath, made.keyPem, 0o600);
  writeAtomically(certPath, made.certPem, 0o644);
  return { certPem: made.certPem, keyPem: made.keyPem, certSha256Hex: made.certSha256Hex, created: true };
}
