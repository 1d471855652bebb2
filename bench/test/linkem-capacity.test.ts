// A saturating UDP sender through the emulated link delivers exactly the trace's capacity
// (within 1%): a constant trace, an LTE trace from bench/traces, and a constant rate.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test, type TestContext } from 'node:test';

import { loadTrace, OPPORTUNITY_BYTES, opportunitiesBetween, type LinkemOptions } from '../linkem/src/driver/index.ts';
import { parseProbeCsv, port, runProbe, repoTrace, tempDir, withLinkem } from './linkem-helpers.ts';

const SEND_MS = 4000;
const WINDOW_START_MS = 1000; // let the queue fill first: capacity is only observable while saturated
const UDP_PAYLOAD_BYTES = 1472; // 1500-byte IP packets: each fills one 1504-byte opportunity exactly

let dir: ReturnType<typeof tempDir>;
before(() => {
  dir = tempDir('linkem-capacity-');
});
after(() => dir.remove());

interface Delivery {
  deliveredLinkBytes: number;
  startNs: bigint;
  windowFromNs: bigint;
  windowToNs: bigint;
  reordered: number;
}

async function saturate(options: LinkemOptions, sendPps: number): Promise<Delivery> {
  const csv = join(dir.path, `recv-${Date.now()}.csv`);
  const p = port(20000);
  const { value } = await withLinkem(
    { ...options, queueDown: 'droptail', queueDownArgs: 'packets=3000' },
    async (shell) => {
      const receiver = runProbe(['udp-recv', '--bind', shell.innerAddress, '--port', String(p), '--idle-ms', '60000', '--max-ms', '60000', '--csv', csv], shell);
      await receiver.event('listening');
      const sender = runProbe(['udp-send', '--to', shell.innerAddress, '--port', String(p), '--pps', String(sendPps), '--count', String(Math.round((sendPps * SEND_MS) / 1000)), '--size', String(UDP_PAYLOAD_BYTES)]);
      const sent = await sender.result(SEND_MS + 10000);
      // the window ends when the sender stops: no need to wait for the queue to drain
      const received = await receiver.finish();
      const rows = parseProbeCsv(readFileSync(csv, 'utf8'));
      const windowFromNs = shell.startMonotonicNs > BigInt(sent.startNs as string) ? shell.startMonotonicNs : BigInt(sent.startNs as string);
      const from = windowFromNs + BigInt(WINDOW_START_MS) * 1000000n;
      const to = BigInt(sent.endNs as string);
      const inWindow = rows.filter((r) => r.recvNs >= from && r.recvNs < to);
      for (const r of inWindow) assert.equal(r.bytes, UDP_PAYLOAD_BYTES);
      return { deliveredLinkBytes: inWindow.length * OPPORTUNITY_BYTES, startNs: shell.startMonotonicNs, windowFromNs: from, windowToNs: to, reordered: received.reordered as number };
    },
  );
  return value;
}

function assertWithinOnePercent(t: TestContext, delivered: number, capacity: number, label: string): void {
  const error = Math.abs(delivered - capacity) / capacity;
  t.diagnostic(`${label}: delivered ${delivered} B, capacity ${capacity} B, error ${(error * 100).toFixed(3)}%`);
  assert.ok(capacity > 0, `${label}: empty window`);
  assert.ok(error <= 0.01, `${label}: delivered ${delivered} B vs capacity ${capacity} B (${(error * 100).toFixed(2)}% off)`);
}

const msOf = (ns: bigint): number => Number(ns) / 1e6;

test('constant trace (one opportunity per ms, 12.03 Mbit/s): delivered bytes = trace capacity ±1%', { timeout: 40000 }, async (t) => {
  const trace = join(dir.path, 'constant-1ms.trace');
  writeFileSync(trace, Array.from({ length: 1000 }, (_, i) => `${i + 1}`).join('\n') + '\n');
  const d = await saturate({ downTrace: trace, upMbps: 100 }, 2000);
  const times = loadTrace(trace);
  const capacity = opportunitiesBetween(times, msOf(d.windowFromNs - d.startNs), msOf(d.windowToNs - d.startNs)) * OPPORTUNITY_BYTES;
  assertWithinOnePercent(t, d.deliveredLinkBytes, capacity, 'constant trace');
  assert.equal(d.reordered, 0);
});

test('LTE trace (TMobile-LTE-short.down): delivered bytes = trace capacity ±1%', { timeout: 40000 }, async (t) => {
  const lteTrace = repoTrace('TMobile-LTE-short.down');
  const d = await saturate({ downTrace: lteTrace, upMbps: 100 }, 8000);
  const times = loadTrace(lteTrace);
  const capacity = opportunitiesBetween(times, msOf(d.windowFromNs - d.startNs), msOf(d.windowToNs - d.startNs)) * OPPORTUNITY_BYTES;
  assertWithinOnePercent(t, d.deliveredLinkBytes, capacity, 'LTE trace');
  assert.equal(d.reordered, 0);
});

test('constant rate --down-mbps 12: delivered bytes = 12 Mbit/s ±1%', { timeout: 40000 }, async (t) => {
  const d = await saturate({ downMbps: 12, upMbps: 100 }, 2000);
  const capacity = (Number(d.windowToNs - d.windowFromNs) / 1e9) * (12e6 / 8);
  assertWithinOnePercent(t, d.deliveredLinkBytes, capacity, 'constant 12 Mbit/s');
  assert.equal(d.reordered, 0);
});
