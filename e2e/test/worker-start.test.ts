// The WebTransport worker's start (issue 18, start-up; bench/published/2026-11-25/worker-start): the page starts its
// transport worker from the script inlined in its bundle (a Blob URL), so no fetch of the worker's script lies between
// the page's load and the session, and dash.js is built once the worker has begun to open its session. Checked in real Chromium, with no flags
// a user would not set, on what the browser itself did: the requests it made for the worker's script (none), the URL
// the worker's script ran from (blob:), and the page's start-up timeline's order (window.pccPlayer.metrics().startup:
// the handshake begins before dash.js's build, which used to hold it back), no timing bounds. workerScript=fetched (the start before the change) is checked the other way round, so the checks
// are seen to tell the two apart; sessionStart=serial keeps working with the inline worker.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { StartupTimeline } from '@pcc-stream/player';
import type { OriginProcess } from '@pcc-stream/server/process';
import { originPortsQuery, startOriginAndChromium } from '../src/origin-and-chromium.ts';

let origin: OriginProcess;
let browser: Browser;
before(async () => ({ origin, browser } = await startOriginAndChromium()));
after(() => browser?.close().finally(() => origin?.stop()));

/** The built worker's own file (vite names it after its source, player/src/transport/webtransport-worker.ts). */
const WORKER_FILE = /\/assets\/webtransport-worker-[^/]*\.js$/;

interface Start {
  startup: StartupTimeline;
  /** Requests the browser made for the worker's own file, from the page or any of its workers. */
  workerScriptRequests: string[];
  /** The page's Resource Timing entries for it. */
  workerScriptEntries: string[];
}

/** Opens the page with `query`, waits for playback, and returns its start-up timeline and what was fetched of the
 *  worker's script. */
async function start(query: string): Promise<Start> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const workerScriptRequests: string[] = [];
    context.on('request', (request) => {
      if (WORKER_FILE.test(new URL(request.url()).pathname)) workerScriptRequests.push(request.url());
    });
    const page = await context.newPage();
    await page.goto(`${origin.httpBase}/?${query}&content=abr`);
    await page.waitForFunction(() => (window.pccPlayer.metrics()?.startupDelayS ?? null) !== null || window.pccPlayer.errors().length > 0, undefined, { timeout: 60_000 });
    assert.deepEqual(await page.evaluate(() => window.pccPlayer.errors()), []);
    const startup = (await page.evaluate(() => window.pccPlayer.metrics()))!.startup;
    const workerScriptEntries = (await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name)))
      .filter((name) => WORKER_FILE.test(new URL(name).pathname));
    process.stderr.write(`${JSON.stringify({ component: 'e2e', test: 'worker-start', query, startup, worker_script_requests: workerScriptRequests, worker_script_entries: workerScriptEntries })}\n`);
    return { startup, workerScriptRequests, workerScriptEntries };
  } finally {
    await context.close();
  }
}

function step(s: StartupTimeline, name: keyof StartupTimeline): number {
  const value = s[name];
  assert.equal(typeof value, 'number', `${name} missing from the start-up timeline ${JSON.stringify(s)}`);
  return value as number;
}

test('datagrams: the worker starts from the script inlined in the page, nothing is fetched for it, dash.js is built once its handshake began', { timeout: 120_000 }, async () => {
  const { startup: s, workerScriptRequests, workerScriptEntries } = await start(`cc=vivace&${originPortsQuery(origin)}`);
  assert.equal(s.sessionStart, 'early');
  assert.equal(s.workerScript, 'inline');
  assert.deepEqual(workerScriptRequests, [], 'the worker\'s script was fetched on the way to the session');
  assert.deepEqual(workerScriptEntries, []);
  assert.equal(s.workerScriptProtocol, 'blob:', `the worker's script ran from a ${s.workerScriptProtocol} URL, not the page's bundle`);
  // dash.js's build begins in the task that heard the worker construct its WebTransport; the worker's own clock,
  // carried to the page's, may differ by the browsers' timer coarsening (0.1 ms), hence the 1 ms. The session's ready
  // message comes from the same worker after that one.
  assert.ok(step(s, 'connectStartMs') <= step(s, 'playerCreatedMs') + 1, `dash.js was built before the session's handshake began: ${JSON.stringify(s)}`);
  assert.ok(step(s, 'playerCreatedMs') < step(s, 'sessionReadyMs'), `dash.js was built only once the session was up: ${JSON.stringify(s)}`);
  assert.ok(step(s, 'manifestRequestMs') <= step(s, 'firstSegmentRequestMs'), JSON.stringify(s));
});

test('datagrams, workerScript=fetched: the start before the change fetches the worker\'s own file, once', { timeout: 120_000 }, async () => {
  const { startup: s, workerScriptRequests } = await start(`cc=vivace&workerScript=fetched&${originPortsQuery(origin)}`);
  assert.equal(s.workerScript, 'fetched');
  assert.equal(workerScriptRequests.length, 1, `expected the worker's script fetched once: ${JSON.stringify(workerScriptRequests)}`);
  assert.equal(s.workerScriptProtocol, 'http:');
  // dash.js is built at once, while the script is fetched: the opposite order to the inline start's.
  assert.ok(step(s, 'playerCreatedMs') + 1 < step(s, 'workerRunningMs'), JSON.stringify(s));
  assert.ok(step(s, 'playerCreatedMs') < step(s, 'sessionReadyMs'), JSON.stringify(s));
});

test('datagrams, sessionStart=serial: the inline worker opens the session before dash.js is built, after /cert-hash', { timeout: 120_000 }, async () => {
  const { startup: s, workerScriptRequests } = await start(`cc=vivace&sessionStart=serial&${originPortsQuery(origin)}`);
  assert.equal(s.certHashSource, 'fetched');
  assert.deepEqual(workerScriptRequests, []);
  assert.equal(s.workerScriptProtocol, 'blob:');
  assert.ok(step(s, 'certHashFetchEndMs') <= step(s, 'workerCreatedMs'), JSON.stringify(s));
  assert.ok(step(s, 'sessionReadyMs') <= step(s, 'playerCreatedMs'), JSON.stringify(s));
});
