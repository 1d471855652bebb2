// The shared origin launcher (src/cli/origin-process.ts): ready detection, reported ports, clean stop, clear failures.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { startOriginProcess } from '../src/cli/origin-process.ts';
import { makeMedia, type MediaFixture } from './helpers.ts';

let media: MediaFixture;
const quietEnv = { ...process.env, PCC_LOG_LEVEL: 'warn' };

before(() => {
  media = makeMedia({ 'a.bin': 10_000 });
});

after(() => media?.cleanup());

test('startOriginProcess: reports the bound ports and the served certificate hash, then stops with exit code 0', async () => {
  const origin = await startOriginProcess({ mediaDir: media.dir, cc: 'cubic', env: quietEnv });
  try {
    for (const port of [origin.webTransportPort, origin.httpPort, origin.httpsPort]) assert.ok(port > 0 && port < 65536, `port ${port}`);
    assert.equal(origin.httpBase, `http://127.0.0.1:${origin.httpPort}`);
    assert.match(origin.certHashHex, /^[0-9a-f]{64}$/);
    const served = await (await fetch(`${origin.httpBase}/cert-hash`)).text();
    assert.equal(served.trim(), origin.certHashHex);
    assert.equal(origin.exitCode(), null);
  } finally {
    assert.equal(await origin.stop(), 0);
  }
  assert.equal(origin.exitCode(), 0);
  assert.equal(await origin.stop(), 0, 'a second stop is harmless');
  await assert.rejects(fetch(`${origin.httpBase}/cert-hash`, { signal: AbortSignal.timeout(2000) }), 'nothing listens after stop');
});

test('startOriginProcess: an origin that cannot start rejects with its own error message', async () => {
  await assert.rejects(startOriginProcess({ mediaDir: join(media.dir, 'missing'), env: quietEnv }), /exited with code 1 before it was ready:[\s\S]*(ENOENT|no such file)/);
  await assert.rejects(startOriginProcess({ mediaDir: media.dir, cc: 'reno', env: quietEnv }), /exited with code 2[\s\S]*--cc reno is not a datagram controller/);
});
