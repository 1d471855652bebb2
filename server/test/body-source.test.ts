// FileBodySource: a body larger than its one-block read cache reads back byte-exact, forward a packet at a time
// (the send loop) and at random offsets (retransmissions), and refuses reads past its end or after close.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { FileBodySource, READ_BLOCK_BYTES } from '../src/media/body-source.ts';

const dir = mkdtempSync(join(tmpdir(), 'pcc-stream-unit-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a file body over several read blocks reads back exactly, in order and at random offsets', () => {
  const data = randomBytes(3 * READ_BLOCK_BYTES + 17);
  const path = join(dir, 'body');
  writeFileSync(path, data);
  const source = new FileBodySource(path, data.byteLength);
  const forward = Buffer.alloc(data.byteLength);
  for (let at = 0; at < data.byteLength; at += 1400) forward.set(source.read(at, Math.min(1400, data.byteLength - at)), at);
  assert.ok(forward.equals(data));
  for (let i = 0; i < 500; i++) {
    const at = Math.floor(Math.random() * (data.byteLength - 1400));
    assert.ok(Buffer.from(source.read(at, 1400)).equals(data.subarray(at, at + 1400)), `1400 B at ${at}`);
  }
  assert.throws(() => source.read(data.byteLength - 10, 20), /past the body's end/);
  source.close();
  assert.throws(() => source.read(0, 1), /closed/);
});
