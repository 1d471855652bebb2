// Random loss within the 99% binomial interval, seeded and reproducible; queue limits
// (droptail, drophead; packets= and bytes=) enforced exactly, checked by replaying the
// mm-link log and against what the receiver got.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { parseMmLog, type LinkemOptions, type LinkemSummary } from '../linkem/src/driver/index.ts';
import { parseProbeCsv, port, runProbe, sleep, tempDir, withLinkem, type ProbeCsvRow } from './linkem-helpers.ts';

let dir: ReturnType<typeof tempDir>;
before(() => {
  dir = tempDir('linkem-loss-queue-');
});
after(() => dir.remove());

const Z_99 = 2.5758; // two-sided 99% normal quantile

async function sendBothWays(options: LinkemOptions, count: number, pps: number): Promise<{ up: ProbeCsvRow[]; down: ProbeCsvRow[]; summary: LinkemSummary }> {
  const tag = Math.random().toString(36).slice(2);
  const downCsv = join(dir.path, `down-${tag}.csv`);
  const upCsv = join(dir.path, `up-${tag}.csv`);
  const p = port(22000);
  const { summary } = await withLinkem(options, async (shell) => {
    const downRecv = runProbe(['udp-recv', '--bind', shell.innerAddress, '--port', String(p), '--idle-ms', '60000', '--max-ms', '60000', '--csv', downCsv], shell);
    const upRecv = runProbe(['udp-recv', '--bind', shell.baseAddress, '--port', String(p + 1), '--idle-ms', '60000', '--max-ms', '60000', '--csv', upCsv]);
    await Promise.all([downRecv.event('listening'), upRecv.event('listening')]);
    const args = ['--pps', String(pps), '--count', String(count), '--size', '100'];
    await Promise.all([
      runProbe(['udp-send', '--to', shell.innerAddress, '--port', String(p), ...args]).result(30000),
      runProbe(['udp-send', '--to', shell.baseAddress, '--port', String(p + 1), ...args], shell).result(30000),
    ]);
    await sleep(300);
    await Promise.all([downRecv.finish(), upRecv.finish()]);
  });
  return { up: parseProbeCsv(readFileSync(upCsv, 'utf8')), down: parseProbeCsv(readFileSync(downCsv, 'utf8')), summary };
}

test('loss rate per direction within the 99% binomial interval, reproducible from the seed', { timeout: 60000 }, async (t) => {
  const n = 10000;
  const loss = { down: 0.1, up: 0.03 };
  const first = await sendBothWays({ lossDown: loss.down, lossUp: loss.up, seed: 42 }, n, 10000);
  for (const dirName of ['up', 'down'] as const) {
    const p = loss[dirName];
    const s = first.summary[dirName];
    const dropped = n - first[dirName].length;
    const half = Z_99 * Math.sqrt(n * p * (1 - p));
    t.diagnostic(`${dirName}: p=${p}, lost ${dropped} of ${n} (expected ${n * p} ± ${half.toFixed(1)}); forwarder: ${s.ingressPackets} in, ${s.lossDropPackets} randomly dropped`);
    assert.ok(Math.abs(dropped - n * p) <= half, `${dirName}: ${dropped} losses outside [${(n * p - half).toFixed(1)}, ${(n * p + half).toFixed(1)}]`);
    // every loss is a random drop by the emulator (any other packet it saw was not ours)
    const strays = s.ingressPackets - n;
    assert.ok(strays >= 0 && s.lossDropPackets >= dropped && s.lossDropPackets - dropped <= strays, `${dirName}: losses not explained by random drops`);
    assert.equal(s.queueDropPackets, 0);
  }
  // Same seed, same packets: the same sequence numbers are lost.
  const second = await sendBothWays({ lossDown: loss.down, lossUp: loss.up, seed: 42 }, 2000, 10000);
  const lostIn = (rows: ProbeCsvRow[], upTo: number): number[] => {
    const got = new Set(rows.map((r) => r.seq));
    return Array.from({ length: upTo }, (_, i) => i).filter((i) => !got.has(i));
  };
  assert.deepEqual(lostIn(second.down, 2000), lostIn(first.down, 2000));
  assert.deepEqual(lostIn(second.up, 2000), lostIn(first.up, 2000));
});

interface BurstResult {
  received: ProbeCsvRow[];
  summary: LinkemSummary;
  log: ReturnType<typeof parseMmLog>;
}

/** 200 full-size packets at once into a 1 Mbit/s downlink (one 1504-byte opportunity per 12 ms). */
async function burst(queueDown: 'droptail' | 'drophead', queueDownArgs: string): Promise<BurstResult> {
  const tag = Math.random().toString(36).slice(2);
  const csv = join(dir.path, `burst-${tag}.csv`);
  const logPath = join(dir.path, `burst-${tag}.log`);
  const p = port(22100);
  const { summary } = await withLinkem({ downMbps: 1, queueDown, queueDownArgs, logDown: logPath }, async (shell) => {
    const recv = runProbe(['udp-recv', '--bind', shell.innerAddress, '--port', String(p), '--idle-ms', '60000', '--max-ms', '60000', '--csv', csv], shell);
    await recv.event('listening');
    await runProbe(['udp-send', '--to', shell.innerAddress, '--port', String(p), '--pps', '1000000', '--count', '200', '--size', '1472', '--burst', '1']).result();
    await sleep(21 * 12 + 300); // 20 queued packets at one per 12 ms, and margin
    await recv.finish();
  });
  return { received: parseProbeCsv(readFileSync(csv, 'utf8')), summary, log: parseMmLog(readFileSync(logPath, 'utf8')) };
}

/** Replays the log: with 1504-byte packets a departure is also the moment the packet left the queue. */
function replay(log: ReturnType<typeof parseMmLog>): { maxPackets: number; maxBytes: number; drops: number; departures: number; arrivals: number } {
  let packets = 0;
  let bytes = 0;
  let maxPackets = 0;
  let maxBytes = 0;
  let drops = 0;
  let departures = 0;
  let arrivals = 0;
  // mm-link logs an arrival, then its drop: occupancy is checked once an arrival's drops are applied
  const observe = (): void => {
    maxPackets = Math.max(maxPackets, packets);
    maxBytes = Math.max(maxBytes, bytes);
  };
  for (const e of log.events) {
    if (e.kind !== 'drop') observe();
    if (e.kind === 'arrival') {
      arrivals++;
      packets++;
      bytes += e.bytes;
    } else if (e.kind === 'drop') {
      drops += e.packets;
      packets -= e.packets;
      bytes -= e.bytes;
    } else if (e.kind === 'departure') {
      departures++;
      packets--;
      bytes -= e.bytes;
    }
    assert.ok(packets >= 0 && bytes >= 0, 'log replay went negative');
  }
  observe();
  return { maxPackets, maxBytes, drops, departures, arrivals };
}

test('droptail packets=20: the queue never holds more than 20 packets and drops arrivals', { timeout: 30000 }, async (t) => {
  const r = await burst('droptail', 'packets=20');
  const replayed = replay(r.log);
  t.diagnostic(`arrivals ${replayed.arrivals}, drops ${replayed.drops}, departures ${replayed.departures}, max queue ${replayed.maxPackets} packets`);
  assert.equal(r.log.header.queue, 'droptail [packets=20]');
  assert.equal(replayed.arrivals, 200);
  assert.equal(replayed.maxPackets, 20);
  assert.equal(r.summary.down.maxQueuePackets, 20);
  assert.equal(replayed.drops, r.summary.down.queueDropPackets);
  assert.equal(r.received.length, 200 - replayed.drops);
  assert.equal(r.received.length, replayed.departures);
  // droptail keeps the oldest: the burst's first 20 all arrive, in order (later ones only
  // where an opportunity during the burst freed a slot)
  const seqs = r.received.map((row) => row.seq);
  for (let s = 0; s < 20; s++) assert.equal(seqs[s], s);
  for (let i = 1; i < seqs.length; i++) assert.ok(seqs[i]! > seqs[i - 1]!);
});

test('droptail bytes=30000: at most 19 packets of 1504 link bytes (20 would be 30080)', { timeout: 30000 }, async () => {
  const r = await burst('droptail', 'bytes=30000');
  const replayed = replay(r.log);
  assert.equal(replayed.maxBytes, 19 * 1504);
  assert.equal(r.summary.down.maxQueueLinkBytes, 19 * 1504);
  assert.equal(r.received.length, 200 - replayed.drops);
});

test('drophead packets=20: the newest packets survive', { timeout: 30000 }, async () => {
  const r = await burst('drophead', 'packets=20');
  const replayed = replay(r.log);
  assert.equal(replayed.maxPackets, 20);
  assert.equal(r.received.length, 200 - replayed.drops);
  const seqs = r.received.map((row) => row.seq);
  for (let s = 180; s < 200; s++) assert.ok(seqs.includes(s), `drophead lost packet ${s}, one of the newest 20`);
  for (let i = 1; i < seqs.length; i++) assert.ok(seqs[i]! > seqs[i - 1]!);
});
