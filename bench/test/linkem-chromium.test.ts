// Chromium (Debian's, through playwright-core) runs inside the emulated namespace and loads
// a page from the host over the link, exactly as the benchmark harness will use it.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';

import { chromiumPath, launchChromium } from '@pcc-stream/e2e/chromium';

import { tempDir, withLinkem } from './linkem-helpers.ts';

const ASSET_BYTES = 300_000;

test('Chromium inside the namespace loads a page from MAHIMAHI_BASE through the link', { timeout: 90000 }, async (t) => {
  const dir = tempDir('linkem-chromium-');
  const clients: string[] = [];
  try {
    const { value, summary } = await withLinkem({ downMbps: 24, upMbps: 24, delayMs: 5 }, async (shell) => {
      const server = createServer((req: IncomingMessage, res) => {
        clients.push(req.socket.remoteAddress ?? '');
        if (req.url === '/asset.bin') {
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': ASSET_BYTES });
          res.end(Buffer.alloc(ASSET_BYTES, 7));
          return;
        }
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<!doctype html><title>linkem</title><p id="msg">through the link</p>
<script>fetch('/asset.bin').then(r => r.arrayBuffer()).then(b => { document.title = 'loaded ' + b.byteLength; });</script>`);
      });
      // Bound to the host end of the link only: nothing else can reach it.
      await new Promise<void>((resolve) => server.listen(0, shell.baseAddress, resolve));
      const { port } = server.address() as AddressInfo;
      const wrapper = await shell.writeExecWrapper(join(dir.path, 'chromium-in-linkem'), chromiumPath);
      const browser = await launchChromium({ executablePath: wrapper, launchTimeoutMs: 60000 });
      try {
        const page = await browser.newPage();
        const started = performance.now();
        await page.goto(`http://${shell.baseAddress}:${port}/`, { timeout: 30000 });
        await page.waitForFunction(() => document.title.startsWith('loaded'), undefined, { timeout: 30000 });
        const elapsedMs = performance.now() - started;
        return { text: await page.textContent('#msg'), title: await page.title(), elapsedMs, innerAddress: shell.innerAddress };
      } finally {
        await browser.close();
        server.close();
      }
    });
    t.diagnostic(`page + ${ASSET_BYTES} B asset in ${value.elapsedMs.toFixed(0)} ms; downlink carried ${summary.down.departedBytes} B in ${summary.down.departedPackets} packets`);
    assert.equal(value.text, 'through the link');
    assert.equal(value.title, `loaded ${ASSET_BYTES}`);
    assert.ok(clients.length >= 2, 'the server saw no requests');
    for (const c of clients) assert.equal(c, value.innerAddress, 'a request came from outside the namespace');
    assert.ok(summary.down.departedBytes >= ASSET_BYTES, 'the page did not come through the emulated downlink');
    // 300 kB at 24 Mbit/s needs >= 100 ms: the link, not loopback, carried it
    assert.ok(value.elapsedMs >= 100, `loaded in ${value.elapsedMs.toFixed(0)} ms: faster than the link allows`);
  } finally {
    dir.remove();
  }
});
