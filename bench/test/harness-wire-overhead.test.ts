// Bytes on the wire per byte delivered: linkem's departed downlink IP bytes over the application bytes received,
// in results.jsonl per run and in the summary table.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runId, type RunResult } from '../harness/results.ts';
import { summarize, summaryMarkdown } from '../harness/summary.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  browserWireBytesPerMediaByte, departedBytesUntil, mediaCountedAtEpochMs, readLinkLogStartEpochMs, TCP_WIRE_BYTES_PER_PAYLOAD_BYTE, wireBytesPerMediaByte,
} from '../harness/wire-overhead.ts';

test('wire bytes per media byte: departed IP bytes over delivered bytes; nothing delivered is no figure', () => {
  // A vivace bulk run through linkem (100 Mbit/s, 30 ms): 241 710 774 B departed, 225 527 964 B fetched.
  assert.equal(wireBytesPerMediaByte(241_710_774, 225_527_964)!.toFixed(4), '1.0718');
  assert.equal(wireBytesPerMediaByte(1000, 0), null);
  assert.equal(wireBytesPerMediaByte(Number.NaN, 10), null);
});

test('browser runs: the wire counted up to the players\' report, from the link log\'s wall-clock origin', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wire-until-'));
  try {
    const log = join(dir, 'link-down.log');
    writeFileSync(log, [
      '# mahimahi mm-link (downlink) [constant 8.8 Mbit/s] > link-down.log', '# queue: droptail [bytes=300000]',
      '# init timestamp: 1795655686980', '# base timestamp: 0',
      '0 # 1504', '3 + 1304', '4 - 1304 1', '10 + 1504', '12 - 1504 2', '29999 + 1404', '30000 - 1404 1', '30001 - 1404 3', '33000 - 94 1',
    ].join('\n') + '\n');
    assert.equal(departedBytesUntil(log, 1795655686980 + 30_000), 1300 + 1500 + 1400, 'IP bytes (the log adds 4 per packet) departed at or before the report');
    assert.equal(departedBytesUntil(log, 1795655686980 + 60_000), 1300 + 1500 + 1400 + 1400 + 90, 'a report after the end: all of them');
    assert.equal(departedBytesUntil(log, 1795655686980 - 1), 0);
    assert.equal(readLinkLogStartEpochMs(log), 1795655686980, 'the header gives the clock a player\'s series is placed on');
    writeFileSync(log, '0 - 1304 1\n');
    assert.ok(Number.isNaN(departedBytesUntil(log, Date.now())), 'no wall-clock origin: no figure, not the whole run\'s');
    assert.ok(Number.isNaN(readLinkLogStartEpochMs(log)));
    assert.ok(Number.isNaN(readLinkLogStartEpochMs(join(dir, 'none.log'))), 'no log: no origin, no throw');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('browser runs: the wire is cut at the instant the players counted their bytes, not when the reports were read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wire-counted-'));
  try {
    const log = join(dir, 'link-down.log');
    const originMs = 1795655686980;
    // 1,000 packets of 1,000 IP bytes (log sizes + 4), one per ms from 1 ms on: 1 MB/s on the link.
    const lines = ['# init timestamp: ' + originMs, '# base timestamp: 0'];
    for (let ms = 1; ms <= 1000; ms++) lines.push(`${ms} - 1004 1`);
    writeFileSync(log, lines.join('\n') + '\n');
    // Two players whose workers counted 300,000 and 250,000 bytes at 590 and 610 ms; the reports were read at 900 ms,
    // by when 300 more packets had crossed the link into no count.
    const counts = [
      { bytesReceived: 300_000, bytesReceivedAtEpochMs: originMs + 590 },
      { bytesReceived: 250_000, bytesReceivedAtEpochMs: originMs + 610 },
    ];
    assert.equal(mediaCountedAtEpochMs(counts), originMs + 600);
    const pageBytes = 10_000;
    const figure = browserWireBytesPerMediaByte(log, counts, pageBytes)!;
    assert.ok(Math.abs(figure - (600 * 1000 - pageBytes * TCP_WIRE_BYTES_PER_PAYLOAD_BYTE) / 550_000) < 1e-12, `600 packets over the counted bytes, got ${figure}`);
    const atRead = wireBytesPerMediaByte(departedBytesUntil(log, originMs + 900) - pageBytes * TCP_WIRE_BYTES_PER_PAYLOAD_BYTE, 550_000)!;
    assert.ok(atRead - figure > 0.5, 'the read-time window counts the 300 KB that crossed after the counts as overhead');
    assert.equal(browserWireBytesPerMediaByte(log, [{ bytesReceived: 1, bytesReceivedAtEpochMs: Number.NaN }], 0), null, 'an unstamped count: no figure');
    assert.ok(Number.isNaN(mediaCountedAtEpochMs([])));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the summary averages it per scheme and shows it in the table; runs without it (older lines) are left out', () => {
  const run = (repetition: number, wire: number | undefined): RunResult => ({
    run_id: runId('bulk', 'vivace', repetition), scenario: 'bulk', scheme: 'vivace', repetition, seed: repetition, status: 'ok',
    started_at: '2026-11-25T00:00:00Z', wall_s: 30, duration_s: 30, players: [], buffering_ratio: null, stall_count: null,
    stall_time_s: null, startup_delay_s: null, avg_bitrate_mbps: null, switch_count: null, goodput_mbps: 80, link_utilization: 0.9,
    queue_delay_p95_ms: 5, capacity_mbps: 100, artifacts: {}, ...(wire === undefined ? {} : { wire_bytes_per_media_byte: wire }),
  });
  const [row] = summarize([run(1, 1.05), run(2, 1.07), run(3, undefined)]);
  assert.equal(row!.wire_bytes_per_media_byte.n, 2);
  assert.ok(Math.abs(row!.wire_bytes_per_media_byte.mean - 1.06) < 1e-12);
  assert.match(summaryMarkdown([row!]), /wire B per media B \|[\s\S]*\| 1\.060 ± \d+\.\d{3} \|/);
});
