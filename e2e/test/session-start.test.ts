// The WebTransport session's start (issue 18, start-up; bench/published/2026-11-25/session-setup): the page opens its
// session with the certificate hash the origin inlined in it (no /cert-hash fetch) while dash.js is built, not after
// the session is up. Ordering checks on the page's start-up timeline (window.pccPlayer.metrics().startup) and the
// page's own requests, no timing bounds: dash.js is built in the same task that starts the worker, so it is built
// before the worker can report a session, however loaded the machine is; the serial start (sessionStart=serial, the
// start before the change) is checked the other way round so the check is seen to tell the two apart.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { SessionReport, StartupTimeline } from '@pcc-stream/player';
import { startOriginProcess, type OriginProcess } from '@pcc-stream/server/process';
import { originPortsQuery, startOriginAndChromium } from '../src/origin-and-chromium.ts';
import { mediaDir, playerDist } from '../src/player-fixture.ts';

let origin: OriginProcess;
let browser: Browser;
before(async () => ({ origin, browser } = await startOriginAndChromium()));
after(() => browser?.close().finally(() => origin?.stop()));

/** Opens the page at `pageBase` with `query`, waits for playback, and returns its report and the /cert-hash
 *  requests the page made. */
async function start(pageBase: string, query: string): Promise<{ report: SessionReport; certHashRequests: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const certHashRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/cert-hash') certHashRequests.push(request.url());
    });
    await page.goto(`${pageBase}/?${query}&content=abr`);
    await page.waitForFunction(() => (window.pccPlayer.metrics()?.startupDelayS ?? null) !== null || window.pccPlayer.errors().length > 0, undefined, { timeout: 60_000 });
    assert.deepEqual(await page.evaluate(() => window.pccPlayer.errors()), []);
    const report = (await page.evaluate(() => window.pccPlayer.metrics()))!;
    process.stderr.write(`${JSON.stringify({ component: 'e2e', test: 'session-start', query, startup: report.startup, cert_hash_requests: certHashRequests.length })}\n`);
    return { report, certHashRequests };
  } finally {
    await context.close();
  }
}

function steps(s: StartupTimeline): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(s)) if (typeof value === 'number') out[name] = value;
  return out;
}

test('datagrams: the session opens with the inlined certificate hash while dash.js is built', { timeout: 120_000 }, async () => {
  const { report, certHashRequests } = await start(origin.httpBase, `cc=vivace&${originPortsQuery(origin)}`);
  const s = report.startup;
  assert.equal(s.sessionStart, 'early');
  assert.equal(s.certHashSource, 'page', 'the page fetched the certificate hash although its server inlined it');
  assert.deepEqual(certHashRequests, []);
  const t = steps(s);
  for (const name of ['workerCreatedMs', 'sessionReadyMs', 'playerCreatedMs', 'manifestRequestMs', 'firstSegmentRequestMs', 'playbackStartMs']) {
    assert.ok(name in t, `${name} missing from the start-up timeline ${JSON.stringify(s)}`);
  }
  assert.ok(t['workerCreatedMs']! <= t['playerCreatedMs']!, `the session's worker was created after dash.js was built: ${JSON.stringify(s)}`);
  assert.ok(t['playerCreatedMs']! < t['sessionReadyMs']!, `dash.js was built only once the session was up (a serial start): ${JSON.stringify(s)}`);
});

test('datagrams, sessionStart=serial: the start before the change, /cert-hash first and dash.js after the session', { timeout: 120_000 }, async () => {
  const { report, certHashRequests } = await start(origin.httpBase, `cc=vivace&sessionStart=serial&${originPortsQuery(origin)}`);
  const s = report.startup;
  assert.equal(s.certHashSource, 'fetched');
  assert.equal(certHashRequests.length, 1);
  const t = steps(s);
  assert.ok(t['certHashFetchEndMs']! <= t['workerCreatedMs']!, JSON.stringify(s));
  assert.ok(t['sessionReadyMs']! <= t['playerCreatedMs']!, JSON.stringify(s));
  assert.ok(t['sessionReadyMs']! <= t['manifestRequestMs']!, JSON.stringify(s));
});

test('a page from another origin\'s server: its inlined hash fails, the session\'s own /cert-hash opens it', { timeout: 120_000 }, async () => {
  // Pages from this second origin carry its hash; the session goes to the first origin, whose certificate differs.
  const other = await startOriginProcess({ mediaDir, staticDir: playerDist, cc: 'vivace' });
  try {
    assert.notEqual(other.certHashHex, origin.certHashHex);
    const { report, certHashRequests } = await start(other.httpBase, `cc=vivace&httpPort=${origin.httpPort}&${originPortsQuery(origin)}`);
    assert.equal(report.startup.certHashSource, 'fetched');
    assert.equal(report.startup.pageHashFailed, true);
    assert.deepEqual(certHashRequests, [`${origin.httpBase}/cert-hash`]);
    assert.equal(report.transportSessions, 1);
  } finally {
    await other.stop();
  }
});

test('TCP starts as before: no /cert-hash, no worker', { timeout: 120_000 }, async () => {
  const { report, certHashRequests } = await start(origin.httpBase, `transport=tcp&cc=cubic&${originPortsQuery(origin)}`);
  assert.equal(report.startup.certHashSource, null);
  assert.equal(report.startup.workerCreatedMs, null);
  assert.deepEqual(certHashRequests, []);
  assert.ok(report.startup.manifestRequestMs !== null && report.startup.playerCreatedMs! <= report.startup.manifestRequestMs);
});
