// --cert-dir (tls/persisted-cert.ts): the same certificate across restarts, a new one when the stored one is missing,
// about to expire or not for the origin's names.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CERT_FILE, KEY_FILE, loadOrCreateCert } from '../src/tls/persisted-cert.ts';

test('loadOrCreateCert: made once and reused; replaced when it does not name the host or expires within a day', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pcc-cert-dir-'));
  try {
    const names = ['localhost', '127.0.0.1'];
    const first = loadOrCreateCert(join(dir, 'cert'), names, 13);
    assert.equal(first.created, true);
    assert.match(first.certSha256Hex, /^[0-9a-f]{64}$/);
    assert.equal(statSync(join(dir, 'cert', KEY_FILE)).mode & 0o777, 0o600, 'the key is readable by its owner only');
    assert.ok(statSync(join(dir, 'cert', CERT_FILE)).size > 0);
    const again = loadOrCreateCert(join(dir, 'cert'), names, 13);
    assert.deepEqual({ ...again, created: false }, { ...first, created: false });
    assert.equal(again.created, false, 'a restart reuses the stored certificate');
    const otherHost = loadOrCreateCert(join(dir, 'cert'), [...names, '100.110.0.1'], 13);
    assert.equal(otherHost.created, true, 'a host the stored certificate does not name gets a new one');
    assert.notEqual(otherHost.certSha256Hex, first.certSha256Hex);
    const later = loadOrCreateCert(join(dir, 'cert'), [...names, '100.110.0.1'], 13, Date.now() + 12.5 * 24 * 3600 * 1000);
    assert.equal(later.created, true, 'one expiring within a day is replaced');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
