// The QoE definitions the bench and the page's summary card share (@pcc-stream/protocol qoe.ts), as the player uses
// them: PlaybackMetrics' figures and the card's link figures from /network bins.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  averageSegmentBitrateKbps, bufferingRatio, bufferingRatioWithStartup, linkUtilization, meanCapacityMbps, queueDelayPercentileMs,
  type CapacityBin, type NetworkLink, type QueueBin,
} from '@pcc-stream/protocol';
import { appendBins } from '../src/metrics/network-feed.ts';
import { PlaybackMetrics } from '../src/metrics/playback-metrics.ts';
import { linkFigures, runSummary } from '../src/metrics/run-summary.ts';

test('buffering ratio: stall over stall + playing, startup excluded; 0 before playback', () => {
  assert.equal(bufferingRatio(0, 0), 0);
  assert.equal(bufferingRatio(3000, 9000), 0.25);
  assert.equal(bufferingRatioWithStartup(2000, 3000, 5000), 0.5);
  assert.equal(bufferingRatioWithStartup(0, 0, 0), 0);
});

test('PlaybackMetrics reports the shared definitions, and the card shows the same buffering ratio', () => {
  const m = new PlaybackMetrics(0);
  m.onPlaying(1500); // startup 1.5 s
  m.onRenditionRendered(1500, 1000);
  m.onSegmentLoaded(1000);
  m.onSegmentLoaded(4000);
  m.onSegmentLoaded(4000);
  m.onWaiting(5000);
  m.onPlaying(6200); // 1.2 s stall
  m.onWaiting(9000);
  m.onEnded(9500); // an open stall closes at the end: 0.5 s
  const s = m.snapshot(20_000); // frozen at the end
  assert.equal(s.stallCount, 2);
  assert.equal(s.bufferingRatio, bufferingRatio(1700, 9500 - 1500 - 1700));
  assert.equal(s.bufferingRatioWithStartup, bufferingRatioWithStartup(1500, 1700, 9500 - 1500 - 1700));
  assert.equal(s.averageBitrateKbps, averageSegmentBitrateKbps(9000, 3));
  assert.equal(s.averageBitrateKbps, 3000);
  assert.deepEqual(s.stallIntervalsS, [{ startS: 5, endS: 6.2 }, { startS: 9, endS: 9.5 }]);
  const card = runSummary(s, null, 0, 9.5);
  assert.equal(card.bufferingRatio, s.bufferingRatio);
  assert.equal(s.timeWeightedBitrateKbps, 1000, 'only the 1000 kbit/s rendition was on screen');
  assert.equal(card.playedBitrateMbps, 1, 'the card\'s average bitrate is what played');
  assert.equal(card.downloadedBitrateMbps, 3);
  assert.equal(card.startupDelayS, 1.5);
  assert.equal(card.queueDelayP95Ms, null, 'no link on loopback');
  assert.equal(card.linkUtilization, null);
});

test('queueing-delay percentile by nearest rank, as linkem ranks packets (rank ⌊0.95·n⌋ of the sorted delays)', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => ({ delayMs: i + 1, count: 1 }));
  assert.equal(queueDelayPercentileMs(hundred), 96);
  assert.equal(queueDelayPercentileMs(hundred, 50), 51);
  assert.equal(queueDelayPercentileMs([{ delayMs: 7, count: 1 }]), 7);
  assert.equal(queueDelayPercentileMs([]), null);
  // Counts weigh values: 90 packets at 5 ms and 10 at 200 ms put the 95th percentile at 200 ms; 96 at 5 ms do not.
  assert.equal(queueDelayPercentileMs([{ delayMs: 200, count: 10 }, { delayMs: 5, count: 90 }]), 200);
  assert.equal(queueDelayPercentileMs([{ delayMs: 200, count: 4 }, { delayMs: 5, count: 96 }]), 5);
});

test('link utilization: delivered bytes over mean capacity × duration', () => {
  assert.equal(meanCapacityMbps([4, 6]), 5);
  assert.equal(meanCapacityMbps([]), 0);
  assert.equal(linkUtilization(5e6 * 10 / 8 / 2, 5, 10), 0.5);
  assert.equal(linkUtilization(1000, 0, 10), null);
});

function link(overrides: Partial<NetworkLink> = {}): NetworkLink {
  return {
    id: 'link-0', label: 'lte', origin: { host: '10.0.0.1', webTransportPort: 4433, httpPort: 8080, httpsPort: null }, panes: ['vivace@datagram'],
    // demo clock: bins every second from 100 s; the session started at demo 101 s (offset 101).
    capacity: [[100, 10, 10], [101, 10, 10], [102, 20, 20], [103, 20, 20], [104, 30, 30]],
    // Bin 101: 50 packets at 2 ms and 10 at 10 ms (bin p95 10); bin 103: 30 at 40 ms, 2 at 45 ms (bin p95 45).
    queue: [[100, 99, 0, 9, [[99, 70]]], [101, 10, 1000, 5, [[2, 50], [10, 10]]], [102, null, 0, 0, []], [103, 45, 5000, 15, [[40, 30], [45, 2]]],
      [104, 80, 9000, 30, [[80, 200]]]],
    ...overrides,
  };
}

test('the card\'s link figures cover the bins within the session; its p95 ranks their packets, not the bins\' p95s', () => {
  const bins = { link: link(), binS: 1, demoToPaneOffsetS: 101 };
  // Session seconds [0, 3): demo bins 101, 102, 103.
  const f = linkFigures(bins, 0, 3);
  // Delivered 5 + 0 + 15 Mbit in 3 s of mean capacity (10 + 20 + 20) / 3 Mbit/s.
  assert.equal(f.linkUtilization, linkUtilization((5e6 + 15e6) / 8, (10 + 20 + 20) / 3, 3));
  // 92 packets, rank ⌊0.95·92⌋ = 87 of 50×2, 10×10, 30×40, 2×45 ms: 40 ms. (The bins' p95s weighted by bytes read 45.)
  assert.equal(f.queueDelayP95Ms, 40);
  const before = linkFigures(bins, 0, 1);
  assert.equal(before.queueDelayP95Ms, 10);
  assert.equal(before.linkUtilization, 0.5);
  const none = linkFigures(bins, 10, 20);
  assert.equal(none.queueDelayP95Ms, null);
  assert.equal(none.linkUtilization, null);
});

test('network bins from an incremental answer replace those held from its first bin on (a bin still filling comes again)', () => {
  const held: QueueBin[] = [[0, 5, 0, 1, [[5, 1]]], [0.5, 6, 0, 1, [[6, 1]]], [1, 7, 0, 0.2, [[7, 1]]]];
  appendBins(held, [[1, 9, 100, 2, [[9, 2]]], [1.5, 4, 0, 1, [[4, 1]]]]);
  assert.deepEqual(held, [[0, 5, 0, 1, [[5, 1]]], [0.5, 6, 0, 1, [[6, 1]]], [1, 9, 100, 2, [[9, 2]]], [1.5, 4, 0, 1, [[4, 1]]]]);
  appendBins(held, []);
  assert.equal(held.length, 4);
  const capacity: CapacityBin[] = [];
  appendBins(capacity, [[3, 10, 10]]);
  assert.deepEqual(capacity, [[3, 10, 10]]);
});
