// npm start -- --network NAME (issue 19): the origin behind linkem, the browser on the host reaching it through the
// emulated link. Plays the printed URLs in Chromium with no certificate flag and no certificate-error override, reads the
// link back from GET /network, and checks that nothing is left after Ctrl-C or kill -9. Needs root (namespaces).
// PCC_DEMO_PLAY_S sets each play's length (default 10 s here; the bar is 30 s: PCC_DEMO_PLAY_S=30).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { NETWORK_STATUS_PATH, parseNetworkStatus, type NetworkStatus } from '@pcc-stream/protocol';
import type { SessionReport } from '@pcc-stream/player';
import { launchChromium } from '../src/chromium.ts';
import { chartPoints, stopForCards, summaryCard } from '../src/demo-pane.ts';
import { freeTcpPort } from '../src/free-port.ts';
import { interrupt, npmStart, type NpmStart } from '../src/npm-start.ts';

const playS = Number(process.env.PCC_DEMO_PLAY_S ?? 10);
let browser: Browser;

before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

function namespaces(): string[] {
  return execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' }).split('\n').map((l) => l.split(' ')[0]!).filter(Boolean);
}

/** Command lines of live processes that contain `needle`. */
function processesWith(needle: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmd.includes(needle)) found.push(`${pid}: ${cmd.slice(0, 160)}`);
    } catch { /* gone */ }
  }
  return found;
}

interface DemoStatus { links: Array<{ id: string; namespace: string; origin: string }> }

async function demoStatus(pageBase: string): Promise<DemoStatus> {
  return (await (await fetch(`${pageBase}/status`)).json()) as DemoStatus;
}

async function network(pageBase: string, query = ''): Promise<NetworkStatus> {
  const r = await fetch(`${pageBase}${NETWORK_STATUS_PATH}${query}`);
  assert.equal(r.status, 200);
  const parsed = parseNetworkStatus(await r.json());
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error.message);
  return parsed.value;
}

/** /network once `settled` holds or 20 s have passed (then the last reading, for the assertions to judge): a link's
 *  last bins close a second after they end, later when a loaded machine runs the demo's monitor late. */
async function settledNetwork(pageBase: string, settled: (status: NetworkStatus) => boolean, query = ''): Promise<NetworkStatus> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const status = await network(pageBase, query);
    if (settled(status) || Date.now() > deadline) return status;
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs / 1000} s: ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Nothing of this npm start remains: its namespaces, its origins (they ran on the namespaces' addresses), its port. */
async function assertGone(status: DemoStatus, port: number, timeoutMs = 15_000): Promise<void> {
  const mine = status.links.map((l) => l.namespace);
  await waitFor(`namespaces ${mine.join(', ')} removed`, () => namespaces().every((n) => !mine.includes(n)), timeoutMs);
  await waitFor('origins ended', () => status.links.every((l) => processesWith(`--host ${l.origin} `).length === 0), timeoutMs);
  const tuns = execFileSync('ip', ['-o', 'link'], { encoding: 'utf8' });
  for (const n of mine) assert.ok(!new RegExp(`: ${n}:`).test(tuns), `TUN ${n} still there`);
  await waitFor(`port ${port} free`, async () => {
    try {
      await fetch(`http://127.0.0.1:${port}/status`, { signal: AbortSignal.timeout(500) });
      return false;
    } catch {
      return true;
    }
  }, timeoutMs);
}

async function openPage(url: string): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  // A fresh context as a user's browser: no certificate-error override, no certificate flags.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(url);
  return { page, errors, close: () => context.close() };
}

/** Plays every pane for playS seconds from its first frame; returns each pane's metrics. */
async function play(page: Page, panes: number): Promise<SessionReport[]> {
  await page.waitForFunction((n) => {
    const all = window.pccPlayer.allMetrics();
    return window.pccPlayer.errors().length > 0 || (all.length === n && all.every((m) => m.startupDelayS !== null));
  }, panes, { timeout: 60_000 });
  const early = await page.evaluate(() => window.pccPlayer.errors());
  assert.deepEqual(early, [], `page errors: ${early.join('; ')}`);
  await page.waitForTimeout(playS * 1000);
  const errors = await page.evaluate(() => window.pccPlayer.errors());
  assert.deepEqual(errors, [], `page errors: ${errors.join('; ')}`);
  return page.evaluate(() => window.pccPlayer.allMetrics());
}

function figures(m: SessionReport): Record<string, number | null> {
  return { buffering_ratio: m.bufferingRatio, stalls: m.stallCount, startup_s: m.startupDelayS, played_bitrate_kbps: m.timeWeightedBitrateKbps, avg_bitrate_kbps: m.averageBitrateKbps, bytes: m.bytesReceived };
}

/** Bytes that left the link's viewer downlink over the bins since `sinceS`. */
function deliveredBytes(status: NetworkStatus, linkId: string, sinceS: number): number {
  const link = status.links.find((l) => l.id === linkId);
  assert.ok(link, `no ${linkId} in /network`);
  return link.queue.filter(([tS]) => tS >= sinceS).reduce((sum, [, , , mbps]) => sum + (mbps * 1e6 * status.binS) / 8, 0);
}

async function startDemo(networkName: string): Promise<{ demo: NpmStart; base: string; port: number; status: DemoStatus }> {
  const port = await freeTcpPort();
  const demo = await npmStart(['--network', networkName, '--http-port', String(port)]);
  const base = `http://127.0.0.1:${port}`;
  return { demo, base, port, status: await demoStatus(base) };
}

test('npm start -- --network lte: datagrams and a QUIC stream play through the link; /network has its capacity and queue; competing panes share link 0, their charts carry its capacity and their cards agree with metrics(); Ctrl-C removes everything', async (t) => {
  const { demo, base, port, status } = await startDemo('lte');
  try {
    assert.equal(status.links.length, 3, 'three copies of the link by default');
    const vivaceUrl = demo.urls.find((u) => u.includes('?cc=vivace'));
    assert.ok(vivaceUrl, `printed URLs: ${demo.urls.join(' ')}`);

    const t0 = (await network(base)).nowS;
    const single = await openPage(vivaceUrl);
    const [m] = await play(single.page, 1);
    await single.close();
    assert.ok(m!.bytesReceived > 1e6, `vivace received ${m!.bytesReceived} B`);
    assert.ok(m!.bufferingRatio < 0.5, `buffering ratio ${m!.bufferingRatio}`);
    // Its media crossed link 0 (the single pane's), none crossed the other copies.
    const after1 = await settledNetwork(base, (s) => deliveredBytes(s, 'link-0', t0) >= 0.9 * m!.bytesReceived);
    assert.equal(after1.preset, 'lte');
    const onLink0 = deliveredBytes(after1, 'link-0', t0);
    assert.ok(onLink0 >= 0.9 * m!.bytesReceived, `link-0 delivered ${onLink0} B for ${m!.bytesReceived} B received`);
    assert.ok(deliveredBytes(after1, 'link-1', t0) < 0.05 * onLink0, 'link-1 idle');
    const link0 = after1.links.find((l) => l.id === 'link-0')!;
    const capacity = link0.capacity.filter(([tS]) => tS >= t0).map(([, down]) => down);
    assert.ok(capacity.length >= playS * 2 - 2, `capacity bins: ${capacity.length}`);
    // TMobile-LTE-short downlink: varies, mean ~ a few to tens of Mbit/s.
    assert.ok(Math.max(...capacity) > Math.min(...capacity), 'the trace varies');
    assert.ok(link0.queue.some(([tS, p95]) => tS >= t0 && p95 !== null), 'queueing delay bins while playing');
    t.diagnostic(JSON.stringify({ network: 'lte', pane: 'vivace', play_s: playS, ...figures(m!), link0_delivered_bytes: Math.round(onLink0),
      capacity_mean_mbps: capacity.reduce((a, b) => a + b, 0) / capacity.length }));

    // Kernel CUBIC over plain HTTP/1.1 through the link, as printed.
    const tcpUrl = demo.urls.find((u) => u.includes('transport=tcp&cc=cubic'));
    assert.ok(tcpUrl, `printed URLs: ${demo.urls.join(' ')}`);
    const tcp = await openPage(tcpUrl);
    const [mt] = await play(tcp.page, 1);
    await tcp.close();
    assert.ok(mt!.bytesReceived > 1e6, `tcp-cubic received ${mt!.bytesReceived} B`);
    t.diagnostic(JSON.stringify({ network: 'lte', pane: 'cubic@tcp', play_s: playS, ...figures(mt!) }));

    // Competing: vivace and quinn's BBR on one bottleneck: link 0 carries both players' bytes.
    const t1 = (await network(base)).nowS;
    const compare = await openPage(`${base}/?compare=vivace,bbr@quic-stream&mode=competing&content=${new URL(vivaceUrl).searchParams.get('content')}`);
    const both = await play(compare.page, 2);
    // Both panes' charts carry the shared link's capacity, and after Stop each card's buffering ratio is metrics()'s.
    await stopForCards(compare.page, 2);
    for (const i of [0, 1]) {
      const points = await chartPoints(compare.page, i);
      assert.ok((points[0]?.['link capacity'] ?? 0) >= playS - 2, `competing pane ${i}: capacity points ${JSON.stringify(points[0])}`);
      const card = await summaryCard(compare.page, i);
      const m = await compare.page.evaluate((n) => window.pccPlayer.metrics(n), i);
      assert.equal(card.bufferingRatio, m?.bufferingRatio, `competing pane ${i}: card buffering ratio = metrics().bufferingRatio`);
    }
    await compare.close();
    const sum = both.reduce((s, x) => s + x.bytesReceived, 0);
    await settledNetwork(base, (s) => deliveredBytes(s, 'link-0', t1) >= 0.9 * sum);
    const after2 = await network(base, '?mode=competing&panes=vivace@datagram,bbr@quic-stream');
    assert.equal(after2.links.length, 1);
    assert.deepEqual(after2.links[0]!.panes, ['vivace@datagram', 'bbr@quic-stream']);
    // Each pane started (play() waited for both startups) and kept receiving. How much vivace gets beside BBR's queue is
    // a figure, not a check: 0.42-6.9 MB in 10 s over the CI runs so far (its latency-aware utility yields to a queue).
    for (const x of both) assert.ok(x.startupDelayS !== null && x.bytesReceived > 0, `each pane received media: ${both.map((b) => b.bytesReceived).join(', ')}`);
    const shared = deliveredBytes(await network(base), 'link-0', t1);
    t.diagnostic(JSON.stringify({ network: 'lte', mode: 'competing', panes: both.map(figures), link0_delivered_bytes: Math.round(shared) }));
    assert.ok(shared >= 0.9 * sum, `link-0 delivered ${shared} B for ${sum} B received by both panes`);
  } finally {
    await interrupt(demo);
  }
  await assertGone(status, port);
});

test('npm start -- --network changing-rtt: vivace plays the 8 Mbit/s stream on the 8.8 Mbit/s link; side by side puts each pane on its own copy; competing panes share a link sized for two', async (t) => {
  const { demo, base, port, status } = await startDemo('changing-rtt');
  try {
    const sideBySide = demo.urls.find((u) => u.includes('mode=side-by-side'));
    assert.ok(sideBySide, `printed URLs: ${demo.urls.join(' ')}`);
    // As printed: vivace beside kernel CUBIC over plain HTTP/1.1, no certificate step.
    const url = sideBySide;
    const t0 = (await network(base)).nowS;
    const view = await openPage(url);
    const panes = await play(view.page, 2);
    const labels = await view.page.locator('.pane .cc').allTextContents();
    const transports = await view.page.locator('.pane .transport').allTextContents();
    await view.close();
    assert.deepEqual(labels, ['vivace', 'cubic']);
    assert.match(transports[0]!, /datagrams/);
    assert.match(transports[1]!, /kernel TCP/);
    const status1 = await settledNetwork(base, (s) => ['link-0', 'link-1'].every((id, i) => deliveredBytes(s, id, t0) >= 0.9 * panes[i]!.bytesReceived));
    t.diagnostic(JSON.stringify({ network: 'changing-rtt', mode: 'side-by-side', play_s: playS, panes: panes.map(figures) }));
    for (const [i, id] of ['link-0', 'link-1'].entries()) {
      const bytes = deliveredBytes(status1, id, t0);
      assert.ok(bytes >= 0.9 * panes[i]!.bytesReceived && bytes <= 1.3 * panes[i]!.bytesReceived + 1e6,
        `${id} delivered ${bytes} B, pane ${i} received ${panes[i]!.bytesReceived} B`);
      const capacity = status1.links.find((l) => l.id === id)!.capacity.map(([, down]) => down);
      assert.ok(capacity.every((c) => Math.abs(c - 8.8) < 1e-9), `constant 8.8 Mbit/s: ${capacity.slice(0, 5).join(', ')}`);
    }
    assert.ok(deliveredBytes(status1, 'link-2', t0) < 1e5, 'the third copy carried nothing');
    // The preset's rate is per player (thesis §5.2: 10% above the stream): two competing panes share a link sized for
    // two, 17.6 Mbit/s, not a copy; a single pane stays on copy 1.
    const competing = await network(base, '?mode=competing&panes=vivace@datagram,cubic@tcp');
    assert.deepEqual(competing.links.map((l) => [l.id, l.panes]), [['link-competing', ['vivace@datagram', 'cubic@tcp']]]);
    const shared = competing.links[0]!.capacity.map(([, down]) => down);
    assert.ok(shared.length > 0 && shared.every((c) => Math.abs(c - 17.6) < 1e-9), `constant 17.6 Mbit/s: ${shared.slice(0, 5).join(', ')}`);
    assert.match(competing.description, /sized for 2 players: 17\.6 Mbit\/s/);
    assert.match(demo.output(), /mode=competing: competing panes share one link sized for 2 players: 17\.6 Mbit\/s/);
    const single = await network(base, '?mode=competing&panes=vivace@datagram');
    assert.deepEqual(single.links.map((l) => l.id), ['link-0']);
  } finally {
    await interrupt(demo);
  }
  await assertGone(status, port);
});

test('kill -9 of npm start, then of its whole process group: namespaces, TUNs and processes go; a second start on a busy port names it', async () => {
  const first = await startDemo('lte');
  // A second npm start on the same page port says which port is taken, and starts nothing.
  const second = await npmStart(['--http-port', String(first.port)]).then(
    () => assert.fail('a second npm start on a busy port started'),
    (e: Error) => e.message,
  );
  assert.match(second, new RegExp(`TCP port ${first.port} on 127.0.0.1 \\(--http-port\\) is taken`));
  process.kill(first.demo.pid, 'SIGKILL'); // npm alone: its children watch it (scripts/demo/launcher-watch.ts)
  await assertGone(first.status, first.port);

  const again = await startDemo('lte');
  process.kill(-again.demo.pid, 'SIGKILL'); // npm, sh, start.mjs and the demo at once: origins and forwarders clean up
  await assertGone(again.status, again.port);
});
