// npm run -s replay -w controller-wasm -- FILE [--check | --summary [--json]]
// A recorded session (the origin's --record-dir; format in the package README, "Recording and replaying a
// session") through the native library:
//   --check    replay and compare every recorded decision bit for bit (pcc-replay --check); on the first
//              difference exit 1 when the recording was made with this controller build (a defect), 3 when with
//              another build or one it does not name (an intended change can move decisions: not a defect)
//   --summary  per monitor interval, what the controller was told beside what really happened: the MI's planned
//              length vs. the span it really sent in, its target vs. achieved send rate, the acknowledged-bytes
//              interval compression (span of its ACK arrivals / span of its sends: < 1 means acknowledgements
//              arrived bunched, which inflates the measured throughput), the spread of its RTT samples and how many
//              distinct samples there were, the RTT gradient and the utility. Ends with medians over the session.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { userPath } from '@pcc-stream/protocol/node/user-path';
import { controllerDir } from './paper/run-sim.ts';

/** The native tool; PCC_REPLAY_BIN names another build's (a build dir of your own, as PCC_SIM_BIN for pcc-sim). */
export const REPLAY_BINARY = process.env.PCC_REPLAY_BIN ?? join(controllerDir, 'build', 'pcc-replay');
const USAGE = 'usage: npm run -s replay -w controller-wasm -- FILE [--check | --summary [--json]]';

/** One MI as pcc-replay --mi prints it (cc_mi_report). */
interface MiReport {
  id: number; firstPn: number; lastPn: number; startUs: number; endUs: number; timedOut: number; appLimited: number;
  packetsSent: number; packetsAcked: number; packetsLost: number; rttSamples: number;
  targetRateBps: number; sendRateBps: number; throughputBps: number; lossRate: number; rttGradient: number;
  avgRttUs: number; minRttUs: number; durationUs: number; utility: number;
}

/** What the recording says happened to each packet. */
interface PacketFate { sentUs: number; bytes: number; ackUs?: number; rttUs?: number; recvUs?: number; lost?: boolean }

export interface MiAnalysis {
  id: number;
  t_s: number;
  target_mbps: number;
  /** The controller's own MI statistics: its send rate (bytes over its duration) and throughput. */
  sent_mbps: number;
  /** Bytes of the MI's packets over the span the recording shows they were sent in (what the link saw). */
  wire_mbps: number;
  throughput_mbps: number;
  duration_ms: number;
  /** First to last send of the MI's packets, as recorded. */
  send_span_ms: number;
  /** First to last ACK arrival (sender clock) of its acknowledged packets. */
  ack_span_ms: number;
  /** ack span / send span: 1 when ACKs come back spaced as the packets left; < 1 compressed. */
  ack_compression: number;
  /** Receiver timestamps of its packets' ACKs, first to last / send span (the receiver's view of the spacing). */
  recv_compression: number;
  rtt_min_ms: number;
  rtt_max_ms: number;
  rtt_spread_ms: number;
  rtt_distinct: number;
  packets: number;
  loss: number;
  rtt_gradient: number;
  utility: number;
}

function median(values: number[]): number {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (v.length === 0) return Number.NaN;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

function quantile(values: number[], q: number): number {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  return v.length === 0 ? Number.NaN : v[Math.min(v.length - 1, Math.floor(q * v.length))]!;
}

function readPackets(text: string): { packets: Map<number, PacketFate>; startUs: number } {
  const packets = new Map<number, PacketFate>();
  let startUs = Number.NaN;
  for (const line of text.split('\n')) {
    const f = line.split(' ');
    switch (f[0]) {
      case 'create': startUs = Number(f[3]); break;
      case 'sent': packets.set(Number(f[1]), { sentUs: Number(f[3]), bytes: Number(f[2]) }); break;
      case 'ack': {
        const p = packets.get(Number(f[1]));
        if (p && p.ackUs === undefined) Object.assign(p, { rttUs: Number(f[2]), recvUs: Number(f[3]), ackUs: Number(f[4]) });
        break;
      }
      case 'loss': {
        const p = packets.get(Number(f[1]));
        if (p) p.lost = true;
        break;
      }
      default: break;
    }
  }
  return { packets, startUs };
}

export function analyse(text: string, mis: MiReport[]): MiAnalysis[] {
  const { packets, startUs } = readPackets(text);
  return mis.map((mi) => {
    let firstSent = Infinity, lastSent = -Infinity, firstAck = Infinity, lastAck = -Infinity, firstRecv = Infinity, lastRecv = -Infinity;
    let rttMin = Infinity, rttMax = -Infinity, count = 0, bytes = 0;
    const distinct = new Set<number>();
    for (let pn = mi.firstPn; pn <= mi.lastPn; pn++) {
      const p = packets.get(pn);
      if (!p) continue;
      count++;
      bytes += p.bytes;
      firstSent = Math.min(firstSent, p.sentUs);
      lastSent = Math.max(lastSent, p.sentUs);
      if (p.ackUs === undefined) continue;
      firstAck = Math.min(firstAck, p.ackUs);
      lastAck = Math.max(lastAck, p.ackUs);
      if (p.recvUs! > 0) {
        firstRecv = Math.min(firstRecv, p.recvUs!);
        lastRecv = Math.max(lastRecv, p.recvUs!);
      }
      if (p.rttUs! > 0) {
        rttMin = Math.min(rttMin, p.rttUs!);
        rttMax = Math.max(rttMax, p.rttUs!);
        distinct.add(p.rttUs!);
      }
    }
    const sendSpan = lastSent - firstSent;
    const ackSpan = lastAck - firstAck;
    const recvSpan = lastRecv - firstRecv;
    return {
      id: mi.id,
      t_s: (mi.startUs - startUs) / 1e6,
      target_mbps: mi.targetRateBps / 1e6,
      sent_mbps: mi.sendRateBps / 1e6,
      wire_mbps: sendSpan > 0 ? (bytes * 8) / sendSpan : Number.NaN,
      throughput_mbps: mi.throughputBps / 1e6,
      duration_ms: mi.durationUs / 1000,
      send_span_ms: sendSpan / 1000,
      ack_span_ms: Number.isFinite(ackSpan) ? ackSpan / 1000 : Number.NaN,
      ack_compression: sendSpan > 0 && Number.isFinite(ackSpan) ? ackSpan / sendSpan : Number.NaN,
      recv_compression: sendSpan > 0 && Number.isFinite(recvSpan) ? recvSpan / sendSpan : Number.NaN,
      rtt_min_ms: Number.isFinite(rttMin) ? rttMin / 1000 : Number.NaN,
      rtt_max_ms: Number.isFinite(rttMax) ? rttMax / 1000 : Number.NaN,
      rtt_spread_ms: Number.isFinite(rttMax) ? (rttMax - rttMin) / 1000 : Number.NaN,
      rtt_distinct: distinct.size,
      packets: count,
      loss: mi.lossRate,
      rtt_gradient: mi.rttGradient,
      utility: mi.utility,
    };
  });
}

/** The recording's inputs only (its `expect` lines dropped): replays under a controller that decides differently. */
export function inputsOnly(text: string): string {
  return text.split('\n').filter((l) => !l.startsWith('expect ')).join('\n');
}

/** The script with a controller parameter set right after its `create` line (before any recorded input). */
export function withParam(text: string, name: string, value: number): string {
  return text.replace(/^(create .*)$/m, `$1\nparam ${name} ${value}`);
}

/** pcc-replay --mi over a script's text: one report per finished MI. */
export function replayMisOfText(text: string): MiReport[] {
  const r = spawnSync(REPLAY_BINARY, ['--mi'], { input: text, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`pcc-replay --mi exited with ${r.status}: ${r.stderr.trim()}`);
  return r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as MiReport);
}

/** pcc-replay over a script's text, after every command: the controller's state (telemetry `state`), how many MIs
 * it has finished and the rate of the MI it sends at, bit/s. */
export function replayStatesOfText(text: string): { line: number; state: string; miCompleted: number; miRateBps: number }[] {
  const r = spawnSync(REPLAY_BINARY, [], { input: text, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`pcc-replay exited with ${r.status}: ${r.stderr.trim()}`);
  return r.stdout.trim().split('\n').filter(Boolean).map((l) => {
    const o = JSON.parse(l) as { line: number; telemetry: { state: string; miCompleted: number; miRateBps: number } };
    return { line: o.line, state: o.telemetry.state, miCompleted: o.telemetry.miCompleted, miRateBps: o.telemetry.miRateBps };
  });
}

/** pcc-replay --mi over the file: one report per finished MI. */
export function replayMis(path: string): MiReport[] {
  const r = spawnSync(REPLAY_BINARY, ['--mi', path], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`pcc-replay --mi ${path} exited with ${r.status}: ${r.stderr.trim()}`);
  return r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as MiReport);
}

export interface SessionSummary {
  mis: number;
  median_ack_compression: number;
  p10_ack_compression: number;
  median_recv_compression: number;
  median_rtt_spread_ms: number;
  median_rtt_distinct_per_mi: number;
  median_abs_rtt_gradient: number;
  p90_abs_rtt_gradient: number;
  /** MIs whose measured throughput exceeded what they sent by > 5% (only compressed ACK spacing can do that). */
  share_throughput_above_sent: number;
  /** Median of (span the MI really sent in) / (the duration the controller measured it over). */
  median_send_span_over_duration: number;
  /** Median of the controller's send rate over the MI's target, and of the recorded wire rate over the target. */
  median_sent_over_target: number;
  median_wire_over_target: number;
  /** Pauses of at least SENDER_STALL_US between two sends with no app_state/app_limited event between them
   *  (the sender had data but sent nothing), and the longest. */
  sender_stalls: number;
  longest_stall_ms: number;
}

/** A pause between sends at least this long, and at least STALL_SPACINGS packet spacings at the pacing rate then in
 *  force, with no app-limited news, is a stall: the sender had data and permission to pace it out but sent nothing. */
export const SENDER_STALL_US = 5000;
const STALL_SPACINGS = 4;

/** Such pauses between consecutive sends (µs), from the recording's own pacing rates (its expect lines). */
export function senderStalls(text: string): number[] {
  const stalls: number[] = [];
  let lastSentUs = Number.NaN;
  let lastBytes = 0;
  let rateBytesPerSec = Infinity;
  for (const line of text.split('\n')) {
    const f = line.split(' ');
    if (f[0] === 'expect') rateBytesPerSec = Number(f[1]);
    else if (f[0] === 'sent') {
      const t = Number(f[3]);
      if (t - lastSentUs >= Math.max(SENDER_STALL_US, (STALL_SPACINGS * lastBytes * 1e6) / rateBytesPerSec)) stalls.push(t - lastSentUs);
      lastSentUs = t;
      lastBytes = Number(f[2]);
    } else if (f[0] === 'app_limited' || (f[0] === 'app_state' && f[1] === '1')) lastSentUs = Number.NaN;
  }
  return stalls;
}

export function summarize(rows: MiAnalysis[], stalls: number[] = []): SessionSummary {
  return {
    mis: rows.length,
    median_ack_compression: median(rows.map((r) => r.ack_compression)),
    p10_ack_compression: quantile(rows.map((r) => r.ack_compression), 0.1),
    median_recv_compression: median(rows.map((r) => r.recv_compression)),
    median_rtt_spread_ms: median(rows.map((r) => r.rtt_spread_ms)),
    median_rtt_distinct_per_mi: median(rows.map((r) => r.rtt_distinct)),
    median_abs_rtt_gradient: median(rows.map((r) => Math.abs(r.rtt_gradient))),
    p90_abs_rtt_gradient: quantile(rows.map((r) => Math.abs(r.rtt_gradient)), 0.9),
    share_throughput_above_sent: rows.length === 0 ? Number.NaN : rows.filter((r) => r.throughput_mbps > r.sent_mbps * 1.05).length / rows.length,
    median_send_span_over_duration: median(rows.map((r) => (r.duration_ms > 0 ? r.send_span_ms / r.duration_ms : Number.NaN))),
    median_sent_over_target: median(rows.map((r) => r.sent_mbps / r.target_mbps)),
    median_wire_over_target: median(rows.map((r) => r.wire_mbps / r.target_mbps)),
    sender_stalls: stalls.length,
    longest_stall_ms: stalls.length === 0 ? 0 : Math.max(...stalls) / 1000,
  };
}

function fmt(v: number, digits = 2): string {
  return Number.isFinite(v) ? v.toFixed(digits) : '-';
}

function main(): number {
  const { values, positionals } = parseArgs({ options: { check: { type: 'boolean' }, summary: { type: 'boolean' }, json: { type: 'boolean' }, help: { type: 'boolean' } }, allowPositionals: true, strict: true });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length !== 1 || (!values.check && !values.summary)) {
    console.error(USAGE);
    return 2;
  }
  const path = userPath(positionals[0]!);
  if (values.check) {
    const r = spawnSync(REPLAY_BINARY, ['--check', path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    process.stdout.write(r.stdout);
    process.stderr.write(r.stderr);
    return r.status ?? 1;
  }
  const text = readFileSync(path, 'utf8');
  const rows = analyse(text, replayMis(path));
  const summary = summarize(rows, senderStalls(text));
  if (values.json) {
    console.log(JSON.stringify({ mis: rows, summary }));
    return 0;
  }
  const header = ['mi', 't_s', 'target', 'sent', 'wire', 'thru', 'dur_ms', 'send_ms', 'ack_ms', 'ack/send', 'recv/send', 'rtt_min', 'rtt_max', 'rtt_n', 'pkts', 'loss', 'gradient', 'utility'];
  console.log(header.join('\t'));
  for (const r of rows) {
    console.log([r.id, fmt(r.t_s, 3), fmt(r.target_mbps, 1), fmt(r.sent_mbps, 1), fmt(r.wire_mbps, 1), fmt(r.throughput_mbps, 1), fmt(r.duration_ms, 1),
      fmt(r.send_span_ms, 1), fmt(r.ack_span_ms, 1), fmt(r.ack_compression), fmt(r.recv_compression), fmt(r.rtt_min_ms, 1),
      fmt(r.rtt_max_ms, 1), r.rtt_distinct, r.packets, fmt(r.loss, 3), fmt(r.rtt_gradient, 4), fmt(r.utility, 1)].join('\t'));
  }
  console.log(`# ${JSON.stringify(summary)}`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    process.exit(main());
  } catch (error) {
    console.error(`replay: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
