import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TelemetryDecoder } from '../src/transport/telemetry-decoder.ts';

test('datagram telemetry lines give the pacing rate, smoothed RTT and loss rate', () => {
  const p = new TelemetryDecoder().decode({ t_ms: 10, algorithm: 'vivace', rate_bps: 12e6, srtt_us: 850, loss_rate: 0.02 }, 5);
  assert.deepEqual([p?.sendRateBps, p?.rttUs, p?.lossRate, p?.receivedAtMs], [12e6, 850, 0.02, 5]);
});

test('quic-stream lines give rate and loss from cumulative counters', () => {
  const d = new TelemetryDecoder();
  const first = d.decode({ t_ms: 100, srtt_us: 900, udp_tx_bytes: 1_000_000, lost_bytes: 0 }, 0);
  assert.equal(first?.sendRateBps, null);
  const second = d.decode({ t_ms: 200, srtt_us: 950, udp_tx_bytes: 1_250_000, lost_bytes: 2_500 }, 0);
  assert.equal(second?.sendRateBps, 20e6); // 250 kB in 100 ms
  assert.equal(second?.lossRate, 0.01);
});

test('non-objects and junk fields are ignored', () => {
  const d = new TelemetryDecoder();
  assert.equal(d.decode(42, 0), null);
  assert.equal(d.decode([1, 2], 0), null);
  assert.deepEqual(d.decode({ rate_bps: 'fast', srtt_us: null }, 0)?.sendRateBps, null);
});
