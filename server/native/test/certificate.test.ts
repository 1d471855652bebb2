import assert from 'node:assert/strict';
import { X509Certificate, createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { test } from 'node:test';

import { QuicServer, generateSelfSignedCert } from '../index.js';

const DAY_MS = 24 * 3600 * 1000;

test('self-signed certificate: ECDSA P-256, at most 14 days, hashes match the DER and SPKI', () => {
  const cert = generateSelfSignedCert(['localhost', '127.0.0.1'], 14);
  const x509 = new X509Certificate(cert.certPem);
  const validityMs = Date.parse(x509.validTo) - Date.parse(x509.validFrom);
  assert.ok(validityMs <= 14 * DAY_MS, `validity ${validityMs / DAY_MS} days`);
  assert.ok(validityMs > 13.9 * DAY_MS);
  assert.ok(Date.parse(x509.validFrom) <= Date.now());

  const publicKey = x509.publicKey;
  assert.equal(publicKey.asymmetricKeyType, 'ec');
  assert.equal(publicKey.asymmetricKeyDetails?.namedCurve, 'prime256v1');
  assert.equal(x509.checkPrivateKey(createPrivateKey(cert.keyPem)), true);

  assert.equal(cert.certSha256Hex, createHash('sha256').update(x509.raw).digest('hex'));
  assert.match(cert.certSha256Hex, /^[0-9a-f]{64}$/);
  const spki = createPublicKey(cert.certPem).export({ type: 'spki', format: 'der' });
  assert.equal(cert.spkiSha256Base64, createHash('sha256').update(spki).digest('base64'));

  assert.match(x509.subjectAltName ?? '', /DNS:localhost/);
  assert.match(x509.subjectAltName ?? '', /IP Address:127\.0\.0\.1/);
  assert.equal(x509.verify(publicKey), true, 'self-signed');
});

test('validity is configurable in days and bounded to 1..14', () => {
  const x509 = new X509Certificate(generateSelfSignedCert(['example.test'], 3).certPem);
  const validityDays = (Date.parse(x509.validTo) - Date.parse(x509.validFrom)) / DAY_MS;
  assert.ok(validityDays > 2.99 && validityDays <= 3, `${validityDays}`);
  assert.throws(() => generateSelfSignedCert(['localhost'], 15), /validDays must be between 1 and 14, got 15/);
  assert.throws(() => generateSelfSignedCert(['localhost'], 0), /validDays must be between 1 and 14/);
  assert.throws(() => generateSelfSignedCert([], 5), /names must be a non-empty list/);
});

test('each certificate has its own key', () => {
  const a = generateSelfSignedCert(['localhost'], 1);
  const b = generateSelfSignedCert(['localhost'], 1);
  assert.notEqual(a.certSha256Hex, b.certSha256Hex);
  assert.notEqual(a.keyPem, b.keyPem);
});

test('binding with a bad certificate or key is a clear error', async () => {
  const good = generateSelfSignedCert(['localhost'], 1);
  const other = generateSelfSignedCert(['localhost'], 1);
  const base = { host: '127.0.0.1', port: 0 };
  await assert.rejects(QuicServer.bind({ ...base, certPem: 'not a pem', keyPem: good.keyPem }), /certPem contains no CERTIFICATE/);
  await assert.rejects(QuicServer.bind({ ...base, certPem: good.certPem, keyPem: '' }), /keyPem contains no PRIVATE KEY/);
  await assert.rejects(
    QuicServer.bind({ ...base, certPem: good.certPem, keyPem: other.keyPem }),
    /certPem\/keyPem rejected/,
  );
});
