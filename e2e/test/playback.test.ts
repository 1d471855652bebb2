// The whole path in a real browser: origin (QUIC datagrams paced by PCC Vivace, and kernel TCP), the built
// dash.js player, Debian's Chromium. Each test plays 30 s over loopback and checks what a viewer would notice.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { SessionReport } from '@pcc-stream/player';
import { launchChromium } from '../src/chromium.ts';
import { freeTcpPort } from '../src/free-port.ts';
import { startOriginProcess, type OriginProcess } from '@pcc-stream/server/process';
import { repoRoot } from '../src/repo-root.ts';
import { mediaDir, playerDist, preparePlayerAndMedia } from '../src/player-fixture.ts';

const playS = 30;
const artifactsDir = join(repoRoot, 'e2e', 'test-results');

let origin: OriginProcess;
let browser: Browser;

before(async () => {
  preparePlayerAndMedia();
  mkdirSync(artifactsDir, { recursive: true });
  origin = await startOriginProcess({ mediaDir, staticDir: playerDist, cc: 'vivace' });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await origin?.stop();
});

function pageUrl(query: string): string {
  return `${origin.httpBase}/?${query}&port=${origin.webTransportPort}&tcpPort=${origin.tcpPort}`;
}

async function openPage(query: string): Promise<{ page: Page; pageErrors: string[]; close: () => Promise<void> }> {
  // No certificate flags: WebTransport trusts the origin's certificate by its hash, and the TCP baseline is plain HTTP.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error') pageErrors.push(`console: ${msg.text()}`); });
  await page.goto(query.startsWith('http') ? query : pageUrl(query));
  return { page, pageErrors, close: () => context.close() };
}

async function metrics(page: Page): Promise<SessionReport> {
  const m = await page.evaluate(() => window.pccPlayer.metrics());
  assert.ok(m, 'window.pccPlayer.metrics() returned nothing');
  return m;
}

async function playFor(page: Page, seconds: number): Promise<SessionReport> {
  // Startup is measured separately; the 30 s of playback count from the first frame.
  await page.waitForFunction(() => (window.pccPlayer.metrics()?.startupDelayS ?? null) !== null || (window.pccPlayer.errors().length > 0), undefined, { timeout: 30_000 });
  const errors = await page.evaluate(() => window.pccPlayer.errors());
  assert.deepEqual(errors, [], `the page reported errors before playback: ${errors.join('; ')}`);
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    await page.waitForTimeout(5000);
    const m = await metrics(page);
    process.stderr.write(`${JSON.stringify({ component: 'e2e', label: m.label, positionS: m.playbackPositionS, kbps: m.currentBitrateKbps, stalls: m.stallCount, bufferS: m.series.at(-1)?.bufferS })}\n`);
  }
  return metrics(page);
}

/** Appended to failure messages: on a shared 2-core machine a timing failure may be the load, not the code. */
function context(): string {
  return ` [load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}; origin log tail: ${origin.output().slice(-600).replace(/\s+/g, ' ')}]`;
}

function assertGoodPlayback(m: SessionReport, pageErrors: string[]): void {
  assert.ok(m.playbackPositionS >= 28, `playback advanced only ${m.playbackPositionS.toFixed(2)} s in ${playS} s${context()}`);
  assert.ok(m.bufferingRatio < 0.01, `buffering ratio ${(m.bufferingRatio * 100).toFixed(2)} % (${m.stallCount} stalls, ${m.totalStallS.toFixed(2)} s)${context()}`);
  assert.ok(m.topBitrateKbps > 0, 'the manifest offered no video rendition');
  assert.equal(m.maxBitrateKbpsReached, m.topBitrateKbps, `top rendition ${m.topBitrateKbps} kbit/s never rendered (max ${m.maxBitrateKbpsReached})${context()}`);
  assert.deepEqual(m.errors, [], `session errors: ${m.errors.join('; ')}`);
  assert.deepEqual(pageErrors, [], `page errors: ${pageErrors.join('; ')}`);
}

test('vivace over WebTransport datagrams plays 30 s without stalls and reaches the top rendition', { timeout: 120_000 }, async () => {
  const { page, pageErrors, close } = await openPage('cc=vivace');
  try {
    const m = await playFor(page, playS);
    await page.screenshot({ path: join(artifactsDir, 'player-vivace.png'), fullPage: true });
    assertGoodPlayback(m, pageErrors);
    assert.ok(m.datagramsReceived > 1000, `only ${m.datagramsReceived} datagrams received`);
    assert.ok(m.bytesReceived > 5e6, `only ${m.bytesReceived} bytes received`);
    assert.ok(m.series.length >= playS, 'per-second series is too short');
    // DATA datagrams are as large as QUIC allows (1421 B at its 1452 B MTU, above the 1200 B of protocol v1):
    // the origin's figures for this session, whose body Chromium received and played.
    const status = (await (await fetch(`${origin.httpBase}/status`)).json()) as { session_list: Array<Record<string, number | string>> };
    const session = status.session_list.filter((s) => s.transport === 'datagram').sort((a, b) => Number(b.packets_sent) - Number(a.packets_sent))[0];
    assert.ok(session, 'the origin lists the datagram session');
    const bodyBytesPerPacket = Number(session.sent_bytes) / Number(session.packets_sent);
    assert.ok(bodyBytesPerPacket > 1300, `${bodyBytesPerPacket.toFixed(0)} body bytes per DATA datagram: datagrams not path-sized`);
    // The player counts media as an HTTP body is counted, each body byte once without our DATA headers (the bench's
    // wire figure divides by it): at most the body bytes the origin had sent by now, retransmissions included.
    assert.ok(m.bytesReceived <= Number(session.sent_bytes), `the player counted ${m.bytesReceived} B, more than the ${session.sent_bytes} body bytes sent (${session.sent_datagram_bytes} B of DATA datagrams)`);
  } finally {
    await close();
  }
});

test('dash.js over HTTP/1.1 on kernel TCP (cubic) plays 30 s without stalls and reaches the top rendition', { timeout: 120_000 }, async () => {
  const { page, pageErrors, close } = await openPage('transport=tcp&cc=cubic');
  try {
    const m = await playFor(page, playS);
    await page.screenshot({ path: join(artifactsDir, 'player-tcp-cubic.png'), fullPage: true });
    assertGoodPlayback(m, pageErrors);
  } finally {
    await close();
  }
});

test('compare mode plays two sessions side by side', { timeout: 60_000 }, async () => {
  const { page, pageErrors, close } = await openPage('compare=vivace,cubic@tcp');
  try {
    await page.waitForFunction(() => window.pccPlayer.allMetrics().every((m) => m.playbackPositionS >= 12) || window.pccPlayer.errors().length > 0, undefined, { timeout: 45_000, polling: 1000 });
    await page.screenshot({ path: join(artifactsDir, 'player-compare.png'), fullPage: true });
    const all = await page.evaluate(() => window.pccPlayer.allMetrics());
    assert.deepEqual(all.map((m) => [m.cc, m.transport]), [['vivace', 'datagram'], ['cubic', 'tcp']]);
    for (const m of all) {
      assert.ok(m.playbackPositionS >= 12, `${m.label} played only ${m.playbackPositionS} s`);
      assert.deepEqual(m.errors, [], `${m.label}: ${m.errors.join('; ')}`);
    }
    assert.equal(await page.locator('.pane').count(), 2);
    assert.deepEqual(pageErrors, []);
  } finally {
    await close();
  }
});

test('a bad cc value shows a clear message on the page', { timeout: 30_000 }, async () => {
  const { page, close } = await openPage('cc=reno');
  try {
    const banner = page.locator('#page-error');
    await banner.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await banner.innerText(), /cc="reno" is not a congestion controller.*vivace/s);
  } finally {
    await close();
  }
});

test('an unreachable origin shows a clear message on the page, not a silent hang', { timeout: 60_000 }, async () => {
  // Nothing listens on these loopback ports: the certificate-hash fetch fails fast.
  const closedHttp = `${origin.httpBase}/?cc=vivace&httpPort=9&port=9`;
  const first = await openPage(closedHttp);
  try {
    const banner = first.page.locator('#page-error');
    await banner.waitFor({ state: 'visible', timeout: 20_000 });
    assert.match(await banner.innerText(), /Cannot reach the origin/);
  } finally {
    await first.close();
  }
  // The certificate hash is available but no QUIC endpoint answers: the WebTransport handshake fails.
  const second = await openPage(`${origin.httpBase}/?cc=vivace&port=9`);
  try {
    const banner = second.page.locator('#page-error');
    await banner.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await banner.innerText(), /WebTransport/);
  } finally {
    await second.close();
  }
  // transport=tcp with nothing on the TCP baseline's port: dash.js gives up on the manifest after its retries.
  const closedTcpPort = await freeTcpPort();
  const third = await openPage(`${origin.httpBase}/?transport=tcp&cc=cubic&tcpPort=${closedTcpPort}`);
  try {
    const banner = third.page.locator('#page-error');
    await banner.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await banner.innerText(), /could not start.*manifest\.mpd/s);
  } finally {
    await third.close();
  }
});
