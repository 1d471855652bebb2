// CMCD in and CMSD out, end to end in Chromium (issue 18 items 1 and 6): dash.js's own CMCD reaches the origin over
// WebTransport datagrams and over HTTP/1.1 on kernel TCP (the origin sees `bl` change during playback), and the origin's CMSD
// `etp` reaches dash.js's CmsdModel and is blended into the throughput samples its ABR uses. Fails if dash.js stops
// sending `bl` or stops reading `etp`, or if the continuous stream (stream=1) stops forwarding the CMCD of the segments
// it serves (PROTOCOL.md §2.9). Also that the page's ABR settings reach dash.js (playback-session.ts): by default its
// estimate is the harmonic mean of the last 5 video samples with a 4 s abandonment lock, and `abrThroughput=dashjs`
// gives dash.js's own defaults back (EWMA, 10 s); dash.js's fast switch is stated on by default and `fastSwitch=off`
// reaches it as off (fails if the setting is dropped: dash.js then holds null). By default (`abandon=buffer`) the page's
// abandonment rule in dash.js's AbandonRequestsRule's place (fails if the rule is not registered: dash.js then never
// consults it, or if dash.js's own stays active); `abandon=dashjs` keeps dash.js's and leaves the page's out.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { CmsdReport, SessionReport } from '@pcc-stream/player';
import { decodeCmsdDynamic } from '@pcc-stream/protocol';
import { startOriginProcess, type OriginProcess } from '@pcc-stream/server/process';
import { originPortsQuery, startOriginAndChromium } from '../src/origin-and-chromium.ts';
import { mediaDir, playerDist } from '../src/player-fixture.ts';

const playS = 20;
const statusPollMs = 1000;

let origin: OriginProcess;
let browser: Browser;


before(async () => {
  ({ origin, browser } = await startOriginAndChromium());
});

/** dash.js's own CMCD must pass the origin's parser: a refusal would be a 400 (and a retry) in the middle of playback. */
function assertNoCmcdRefused(): void {
  assert.doesNotMatch(origin.output(), /cmcd\.rejected/, `the origin refused dash.js's CMCD: ${origin.output().match(/.*cmcd\.rejected.*/)?.[0] ?? ''}`);
}

after(async () => {
  await browser?.close();
  await origin?.stop();
});

type Row = Record<string, number | string>;
interface Status { session_list: Row[]; tcp_connections: Row[] }

async function status(httpBase = origin.httpBase): Promise<Status> {
  return (await (await fetch(`${httpBase}/status`)).json()) as Status;
}

/** The fields of an origin session's /status row that say where its sending stands (server/src/session/datagram-transport.ts). */
function senderState(row: Row | null): Row | null {
  if (row === null) return null;
  const fields = Object.fromEntries(Object.entries(row).filter(([k]) => /^(sent_bytes|pacing_rate_bps|bytes_in_flight|active_requests|open_requests|packets_sent|packets_lost|probe_timeouts|acks_received|srtt_us|min_rtt_us|stall_.*|cmcd_bl_ms|cmcd_updates)$/.test(k)));
  // What held the sends back longest (server/src/datagram/stall-reasons.ts): 'tokens' is the controller's pacing rate.
  const held = Object.entries(fields).filter(([k, v]) => /^stall_.*_ms$/.test(k) && k !== 'stall_max_ms' && typeof v === 'number').sort((a, b) => Number(b[1]) - Number(a[1]))[0];
  return { ...fields, held_longest_by: held ? `${held[0].replace(/^stall_|_ms$/g, '')} ${held[1]} ms` : '-' };
}

/** Plays for `seconds` while collecting every `bl` the origin recorded for the page's session or connections. */
async function playAndWatchBl(page: Page, seconds: number, rows: (s: Status) => Row[]): Promise<number[]> {
  await page.waitForFunction(() => (window.pccPlayer.metrics()?.startupDelayS ?? null) !== null || window.pccPlayer.errors().length > 0, undefined, { timeout: 30_000 });
  assert.deepEqual(await page.evaluate(() => window.pccPlayer.errors()), []);
  const seen: number[] = [];
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    await page.waitForTimeout(statusPollMs);
    for (const row of rows(await status())) if (typeof row.cmcd_bl_ms === 'number') seen.push(row.cmcd_bl_ms);
  }
  return seen;
}

async function openPage(query: string): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${origin.httpBase}/?${query}&${originPortsQuery(origin)}`);
  return { page, close: () => context.close() };
}

/**
 * The per-segment ABR log (player/src/metrics/abr-segment-log.ts, the bench's abr-segments-player-N.jsonl) is wired to
 * real dash.js: each of its sources must have filled its fields for the segments played — dash.js's loading events
 * (index, rendition), its HttpList metric (request times, the etp it parsed), its stored throughput sample paired
 * with that entry (the same value its CmsdReport saw stored), its estimate after it, and the fetcher's transfer.
 */
async function assertAbrLogWired(page: Page): Promise<void> {
  // The log and dash.js's stored samples in one page turn: read apart, a segment ending between them has its sample in
  // one and not the other (the playback goes on).
  const { log, report } = await page.evaluate(() => ({ log: window.pccPlayer.abrSegments(0), report: window.pccPlayer.cmsd() as CmsdReport }));
  const handedEtp = handedEtpOf(report);
  const segments = log.filter((r) => r.kind === 'segment');
  const tell = `(${segments.length} segment records; last ${JSON.stringify(segments.slice(-2))})`;
  const loaded = segments.filter((s) => s.index !== null && s.renditionKbps !== null && s.renditionKbps > 0);
  assert.ok(loaded.length >= 5, `dash.js's loading events named only ${loaded.length} segments ${tell}`);
  const timed = segments.filter((s) => s.dashRequestMs !== null && s.dashEndMs !== null && s.dashEndMs >= s.dashRequestMs);
  assert.ok(timed.length >= 5, `dash.js's HttpList gave request times for only ${timed.length} segments ${tell}`);
  const carried = segments.filter((s) => s.transfer !== null && s.transfer.bytes > 0 && s.pathKbps !== null && s.pathKbps > 0);
  assert.ok(carried.length >= 5, `the fetcher reported the transfer of only ${carried.length} segments ${tell}`);
  const sampled = segments.filter((s) => s.sampleKbps !== null);
  assert.ok(sampled.length >= 3, `only ${sampled.length} segments were paired with a throughput sample ${tell}`);
  const stored = report.samples.map((s) => s.valueKbps);
  const unknownSamples = sampled.filter((s) => !stored.some((v) => Math.abs(v - s.sampleKbps!) <= 1e-6 * Math.max(1, v)));
  assert.deepEqual(unknownSamples, [], 'a segment\'s sample is one dash.js stored');
  const withEtp = segments.filter((s) => s.etpKbps !== null);
  assert.ok(withEtp.length >= 3, `dash.js's HttpList carried an etp for only ${withEtp.length} segments ${tell}`);
  const unsent = withEtp.filter((s) => !handedEtp.some((e) => Math.abs(e - s.etpKbps!) <= 1));
  assert.deepEqual(unsent, [], 'every etp in the log is one the loader handed dash.js');
  assert.ok(sampled.some((s) => s.estimateKbps !== null && s.estimateKbps > 0), `no estimate recorded after a sample ${tell}`);
}

/** dash.js holds the page's ABR settings, and its estimate after a sample is the harmonic mean of the last 5 video
 *  samples (the abr log's, paired with dash.js's stored ones above) for most segments: fails if the settings are
 *  dropped (dash.js's EWMA then). */
async function assertHarmonicAbr(page: Page, report: CmsdReport): Promise<void> {
  assert.deepEqual(report.abrSettings, {
    averageCalculationMode: 'throughputCalculationModeHarmonicMean', vodSamples: 5, sampleSizeAdjustment: false, abandonLoadTimeoutMs: 4000,
    fastSwitchEnabled: true, abandonRequestsRuleActive: false,
  });
  // dash.js consults its abandonment rules on a loading segment's progress: 20 s of playback give many.
  assert.equal(report.abandonRule.mode, 'buffer');
  assert.ok(report.abandonRule.checks >= 5, `dash.js consulted the page's abandonment rule ${report.abandonRule.checks} times`);
  const sampled = (await page.evaluate(() => window.pccPlayer.abrSegments(0))).flatMap((r) => (r.kind === 'segment' && r.sampleKbps !== null ? [r] : []));
  const checked: Array<{ estimate: number; harmonic: number }> = [];
  for (let i = 4; i < sampled.length; i += 1) {
    const estimate = sampled[i]!.estimateKbps;
    if (estimate === null) continue;
    const last = sampled.slice(i - 4, i + 1).map((r) => r.sampleKbps!);
    checked.push({ estimate, harmonic: last.length / last.reduce((sum, v) => sum + 1 / v, 0) });
  }
  const agree = checked.filter((c) => Math.abs(c.estimate - c.harmonic) <= 0.001 * c.harmonic);
  assert.ok(checked.length >= 3 && agree.length >= checked.length / 2,
    `dash.js's estimate was the harmonic mean of the last 5 samples after ${agree.length} of ${checked.length} segments: ${JSON.stringify(checked.slice(-4))}`);
}

/** The etp values the loader handed dash.js, in order. */
function handedEtpOf(report: CmsdReport): number[] {
  return report.handed.map((h) => etpOf(h.cmsdDynamic)).filter((e): e is number => e !== null);
}

function etpOf(cmsdDynamic: string): number | null {
  const d = decodeCmsdDynamic(cmsdDynamic);
  return d.ok && d.value.etpKbps !== undefined ? d.value.etpKbps : null;
}

test('WebTransport datagrams: the origin sees dash.js\'s CMCD bl; dash.js reads the origin\'s CMSD etp and blends it; by default the page\'s abandonment rule is in dash.js\'s place', { timeout: 120_000 }, async () => {
  const { page, close } = await openPage('cc=vivace');
  try {
    const bl = await playAndWatchBl(page, playS, (s) => s.session_list.filter((r) => r.transport === 'datagram'));
    assert.ok(bl.length >= playS / 2, `the origin's /status showed CMCD bl only ${bl.length} times in ${playS} s`);
    assert.ok(new Set(bl).size >= 3, `bl never changed during playback: ${[...new Set(bl)].join(', ')}`);
    assert.ok(Math.max(...bl) >= 4000, `the buffer never passed 4 s by CMCD: max bl ${Math.max(...bl)} ms`);
    assertNoCmcdRefused();

    const report = await page.evaluate(() => window.pccPlayer.cmsd()) as CmsdReport;
    const handedEtp = handedEtpOf(report);
    assert.ok(handedEtp.length >= 5, `the loader handed dash.js only ${handedEtp.length} CMSD etp values`);
    assert.ok(handedEtp.every((e) => e > 0), 'etp values are positive rates');
    // dash.js's own CmsdModel parsed the header our loader set (HTTPRequest.cmsd of the latest video request).
    const parsed = report.lastVideoRequestCmsd as { dynamic?: { etp?: number }; static?: { sf?: string } } | null;
    assert.ok(parsed?.dynamic?.etp !== undefined && parsed.dynamic.etp > 0, `dash.js recorded no etp: ${JSON.stringify(parsed)}`);
    assert.equal(parsed.static?.sf, 'd');
    // And its throughput model used it: stored samples are raw·(1 − w) + etp·w for an etp the origin sent.
    const blended = report.samples.filter((s) => s.impliedEtpKbps !== null);
    process.stderr.write(`${JSON.stringify({ component: 'e2e', transport: 'datagram', bl_samples: bl.length, bl_distinct: new Set(bl).size, bl_max_ms: Math.max(...bl), etp_handed: handedEtp.length, etp_last_kbps: handedEtp.at(-1), throughput_samples: report.samples.length, blended: blended.length })}\n`);
    const matching = blended.filter((s) => handedEtp.some((e) => Math.abs(e - s.impliedEtpKbps!) <= 1));
    assert.ok(matching.length >= 3, `only ${matching.length} of ${report.samples.length} throughput samples carry a received etp `
      + `(w ${report.etpWeightRatio}; samples ${JSON.stringify(report.samples.slice(-5))}; etp ${handedEtp.slice(-5).join(', ')})`);
    await assertAbrLogWired(page);
    await assertHarmonicAbr(page, report);
  } finally {
    await close();
  }
});

test('HTTP/1.1 over kernel TCP: the origin sees dash.js\'s CMCD bl; dash.js reads the exposed CMSD headers (no certificate flags); abrThroughput=dashjs gives dash.js\'s ABR defaults back; fastSwitch=off reaches dash.js; abandon=dashjs keeps dash.js\'s rule', { timeout: 120_000 }, async () => {
  const { page, close } = await openPage('transport=tcp&cc=cubic&abrThroughput=dashjs&fastSwitch=off&abandon=dashjs');
  try {
    const bl = await playAndWatchBl(page, playS, (s) => s.tcp_connections);
    assert.ok(bl.length >= playS / 2, `the origin's /status showed CMCD bl over TCP only ${bl.length} times in ${playS} s`);
    assert.ok(new Set(bl).size >= 3, `bl never changed during playback: ${[...new Set(bl)].join(', ')}`);
    assertNoCmcdRefused();
    const report = await page.evaluate(() => window.pccPlayer.cmsd()) as CmsdReport;
    const parsed = report.lastVideoRequestCmsd as { static?: { sf?: string } } | null;
    assert.equal(parsed?.static?.sf, 'd', `dash.js did not see the exposed CMSD-Static header: ${JSON.stringify(parsed)}`);
    assert.deepEqual(report.abrSettings, { averageCalculationMode: 'throughputCalculationModeEwma', vodSamples: 4, sampleSizeAdjustment: true, abandonLoadTimeoutMs: 10_000, fastSwitchEnabled: false, abandonRequestsRuleActive: true });
    assert.deepEqual({ mode: report.abandonRule.mode, checks: report.abandonRule.checks }, { mode: 'dashjs', checks: 0 });
    const m = await page.evaluate(() => window.pccPlayer.metrics());
    assert.ok(m && m.playbackPositionS >= playS - 5, `playback advanced only ${m?.playbackPositionS} s`);
  } finally {
    await close();
  }
});

/** The CMCD updates an origin session's telemetry lines (PROTOCOL.md §2.5) recorded: when, object type and bl of each. */
function cmcdUpdates(logDir: string): Array<{ tMs: number; ot: string; blMs: number | null }> {
  const updates: Array<{ tMs: number; ot: string; blMs: number | null }> = [];
  for (const file of readdirSync(logDir).filter((f) => f.endsWith('.jsonl'))) {
    let last = 0;
    for (const line of readFileSync(join(logDir, file), 'utf8').split('\n')) {
      if (!line.startsWith('{')) continue;
      const row = JSON.parse(line) as Row;
      // One line per MI, with the latest CMCD: each line whose `cmcd_updates` count moved shows the last of those updates.
      if (typeof row.cmcd_updates !== 'number' || row.cmcd_updates === last) continue;
      last = row.cmcd_updates;
      updates.push({ tMs: Number(row.t_ms), ot: String(row.cmcd_ot ?? ''), blMs: typeof row.cmcd_bl_ms === 'number' ? row.cmcd_bl_ms : null });
    }
  }
  return updates;
}

/** The controller's course over the session, one telemetry line per `stepMs` (PROTOCOL.md §2.5): when, its state,
 *  pacing rate (kbit/s), body bytes sent (kB), smoothed and minimum RTT (µs) and the video bl it heard, to tell a
 *  sender that stopped from one whose controller slowed it down. */
function senderCourse(logDir: string, stepMs = 1000): string {
  const out: string[] = [];
  for (const file of readdirSync(logDir).filter((f) => f.endsWith('.jsonl'))) {
    let nextMs = 0;
    for (const line of readFileSync(join(logDir, file), 'utf8').split('\n')) {
      if (!line.startsWith('{')) continue;
      const row = JSON.parse(line) as Row;
      const tMs = Number(row.t_ms);
      if (!(tMs >= nextMs)) continue;
      nextMs = tMs + stepMs;
      out.push(`${Math.round(tMs)}ms:${row.state}:${Math.round(Number(row.rate_bps) / 1000)}k:${Math.round(Number(row.sent_bytes) / 1000)}kB`
        + `:rtt${Math.round(Number(row.srtt_us))}/${Math.round(Number(row.min_rtt_us))}us:bl${row.cmcd_bl_ms ?? '-'}`);
    }
  }
  return out.join(' ');
}

/** One sentence for a stream that served too few segments: what the loader waited for, how far that segment had
 *  come, and what held the origin's sender back (its pacing tokens are its controller's rate). */
function streamStallVerdict(state: SessionReport['streamState'], sender: Row | null): string {
  const open = state?.open ?? null;
  const waiting = state && state.waiting.length > 0 ? `the loader waits for segment(s) ${state.waiting.join(', ')}` : 'no segment request of dash.js waits at the loader (none made since, or aborted)';
  const arriving = open?.arriving ? `; segment ${open.arriving.number} has ${open.arriving.filledBytes} of ${open.arriving.sizeBytes} B`
    + (open.lastChunkMs !== null && state ? `, its last bytes ${Math.round(state.atMs - open.lastChunkMs)} ms ago` : '') : '';
  const stream = open === null ? '; no stream is open' : open.failure ? `; the stream failed: ${open.failure}` : open.ended ? '; the stream ended' : '';
  const origin = sender ? `; the origin's sender was held longest by ${sender.held_longest_by} ('tokens': its controller's pacing rate, now ${sender.pacing_rate_bps} bit/s; ${sender.bytes_in_flight} B in flight)` : '; no origin session';
  return `${waiting}${arriving}${stream}${origin}`;
}

/** Player-state requests the origin accepted, over the sessions it has open (PROTOCOL.md §2.9). */
async function playerStatesAccepted(httpBase: string): Promise<number> {
  const rows = (await status(httpBase)).session_list;
  return rows.reduce((n, r) => n + (typeof r.player_state_requests === 'number' ? r.player_state_requests : 0), 0);
}

/** How long the origin may take to answer the player-state requests the player sent before its report was read. */
const stateSettleMs = 10_000;

test('continuous stream (stream=1) over datagrams: the CMCD of segments served from the stream reaches the origin\'s controller', { timeout: 120_000 }, async () => {
  // An origin of its own that writes each session's telemetry lines, which carry every player state it was told.
  const logDir = mkdtempSync(join(tmpdir(), 'pcc-e2e-stream-cmcd-'));
  const streamOrigin = await startOriginProcess({ mediaDir, staticDir: playerDist, cc: 'vivace-video', logDir });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    // One rendition, so one stream: without the player-state requests the origin would hear the video's bl only once.
    await page.goto(`${streamOrigin.httpBase}/?cc=vivace-video&stream=1&content=abr&abr=off&bitrate=4000&${originPortsQuery(streamOrigin)}`);
    await page.waitForFunction(() => (window.pccPlayer.metrics()?.startupDelayS ?? null) !== null || window.pccPlayer.errors().length > 0, undefined, { timeout: 30_000 });
    await page.waitForTimeout(playS * 1000);
    const report = (await page.evaluate(() => window.pccPlayer.metrics()))!;
    // The origin's side of the same instant: what its sender did for the session and what held its sends back.
    const originSession = (await status(streamOrigin.httpBase)).session_list.find((r) => r.transport === 'datagram') ?? null;
    // Each side counts its own: the player what it sent, the origin what it accepted. The player does not wait for the
    // answers (a request served from the stream never waited for the origin), so the last ones may still be on their way.
    const sent = report.playerStatesSent;
    const settleStartMs = Date.now();
    let accepted = await playerStatesAccepted(streamOrigin.httpBase);
    while (accepted < sent && Date.now() - settleStartMs < stateSettleMs) {
      await new Promise((r) => setTimeout(r, 250));
      accepted = await playerStatesAccepted(streamOrigin.httpBase);
    }
    const settledMs = Date.now() - settleStartMs;
    await context.close();
    await streamOrigin.stop(); // writes out the telemetry lines
    // Audio requests carry their own CMCD (ot=a); the video's comes with the stream's request and the player-state ones.
    // A line shows only the latest CMCD, and lines come only while the session sends: once the stream has delivered the
    // whole rendition (a few seconds on loopback), each video player state arrives with the audio request that follows
    // it and the audio's CMCD hides it. So the lines show some video updates, not one per segment; the counts above
    // say that every one was sent and accepted, the lines that they reached the controller with the player's bl.
    const updates = cmcdUpdates(logDir);
    const video = updates.filter((u) => u.ot === 'v');
    const videoBl = video.map((u) => u.blMs).filter((b): b is number => b !== null);
    const served = report.prefetchHits - report.prefetchIssued;
    const diagnosis = JSON.stringify({
      component: 'e2e', test: 'stream-cmcd', startup_delay_s: report.startupDelayS, position_s: report.playbackPositionS,
      segments_from_stream: report.prefetchHits, streams: report.prefetchIssued, streams_cancelled: report.prefetchCancelled,
      transport_sessions: report.transportSessions, stream_bytes: report.prefetchBytes, stream_state: report.streamState,
      origin_session: senderState(originSession), player_states_expected: served, player_states_sent: sent,
      player_state_failures: report.playerStateFailures, player_states_accepted: accepted, settle_ms: settledMs,
      cmcd_updates_in_lines: updates.length, video_cmcd_updates_in_lines: video.length, video_bl_distinct: new Set(videoBl).size,
      cmcd_lines: updates.map((u) => `${u.tMs}ms:${u.ot}:${u.blMs ?? '-'}`).join(' '), sender_course: senderCourse(logDir), errors: report.errors, load_avg: loadavg().map((l) => l.toFixed(2)),
    });
    process.stderr.write(`${diagnosis}\n`);
    assert.deepEqual(report.errors, [], `the session recorded errors (a player-state request the origin refused shows here): ${diagnosis}`);
    assert.equal(report.stream, true, `the player did not use the continuous stream: ${diagnosis}`);
    assert.ok(report.prefetchHits >= 6, `only ${report.prefetchHits} segments served from the stream in ${playS} s; ${streamStallVerdict(report.streamState, senderState(originSession))}: ${diagnosis}`);
    // The player's side: one player-state request for every segment the stream served but those that opened a stream
    // (their requests carried their CMCD). It sends at dash.js's request, before the segment is served, so it may be ahead.
    assert.ok(sent >= served, `the player sent ${sent} player-state requests for ${served} segments served from the stream (not counting the ${report.prefetchIssued} that opened one): ${diagnosis}`);
    assert.equal(report.playerStateFailures, 0, `the origin did not accept ${report.playerStateFailures} of ${sent} player-state requests: ${diagnosis}`);
    // The origin's side: it accepted every one (and hands each to the controller before counting it, origin-session.ts).
    assert.ok(accepted >= sent, `the origin accepted ${accepted} of the ${sent} player-state requests the player sent (waited ${settledMs} ms): ${diagnosis}`);
    // The controller's side: its telemetry lines show the video's bl change after the stream opened. Without forwarding
    // the only video CMCD is that of each request that opened a stream, so there would be at most one bl per stream.
    assert.ok(new Set(videoBl).size >= report.prefetchIssued + 1,
      `the controller's telemetry lines show ${new Set(videoBl).size} distinct video bl from ${report.prefetchIssued} stream(s): ${diagnosis}`);
    assert.doesNotMatch(streamOrigin.output(), /cmcd\.rejected/, `the origin refused a CMCD: ${streamOrigin.output().match(/.*cmcd\.rejected.*/)?.[0] ?? ''}`);
  } finally {
    await context.close().catch(() => {});
    if (streamOrigin.exitCode() === null) await streamOrigin.stop();
    rmSync(logDir, { recursive: true, force: true });
  }
});
