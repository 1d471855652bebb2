// Generates realistic event scripts: a WASM controller paces packets into a one-bottleneck model (rate,
// droptail buffer, random loss, base RTT) and the resulting sent/ack/loss/tick events are recorded. With
// `odd` set it also injects hostile input (duplicate and unknown acks, RTT <= 0, time going backwards,
// late losses, fractional times, NaN/Infinity/negative fields) so the edge-case paths are compared too.
import type { AlgorithmName, ControllerModule } from '../../types.ts';
import { applyLine, type ScriptLine } from './replay-script.ts';
import { seededRandom } from './seeded-random.ts';

export interface ScenarioOptions {
  algorithm: AlgorithmName;
  seed: number;
  durationUs: number;
  linkRateBps: number;
  baseRttUs: number;
  bufferBytes: number;
  lossRate: number;
  packetBytes: number;
  odd: boolean;
  params?: Record<string, number>;
  /** A player's state every VIDEO_REPORT_US (cc_on_app_state): buffer levels from empty to full, a bitrate, a deadline. */
  video?: boolean;
  /** Instead: the same player state every VIDEO_REPORT_US, never app-limited; reportAtStart: also at 0, before the
   * first send (a browser's player reports its empty buffer with the manifest's requests, before the first MI ends). */
  player?: { bufferMs: number; bitrateBps: number; reportAtStart?: boolean };
  /** The link offers rateBps instead of linkRateBps to packets sent in [startUs, endUs) (a fade). */
  fade?: { startUs: number; endUs: number; rateBps: number };
}

interface Feedback {
  timeUs: number;
  kind: 'ack' | 'loss';
  pn: number;
  rttUs: number;
  recvTimeUs: number;
}

const TICK_INTERVAL_US = 5000;
const VIDEO_REPORT_US = 250_000;

function insertSorted(queue: Feedback[], item: Feedback): void {
  let lo = 0;
  let hi = queue.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (queue[mid]!.timeUs <= item.timeUs) lo = mid + 1;
    else hi = mid;
  }
  queue.splice(lo, 0, item);
}

export function generateScenario(mod: ControllerModule, o: ScenarioOptions): ScriptLine[] {
  const random = seededRandom(o.seed * 7919 + 17);
  const lines: ScriptLine[] = [{ kind: 'create', algorithm: o.algorithm, seed: o.seed, nowUs: 0 }];
  const controller = mod.create(o.algorithm, { nowUs: 0, seed: o.seed });
  const emit = (line: ScriptLine): void => {
    lines.push(line);
    applyLine(controller, line);
  };
  try {
    for (const [name, value] of Object.entries(o.params ?? {})) emit({ kind: 'param', name, value });
    const feedback: Feedback[] = [];
    const acked: number[] = [];
    let nextPn = 0;
    let nextSendUs = 0;
    let nextTickUs = TICK_INTERVAL_US;
    let linkFreeAtUs = 0;
    let nowUs = 0;
    if (o.player?.reportAtStart === true) {
      emit({ kind: 'app_state', appLimited: false, bufferMs: o.player.bufferMs, bitrateBps: o.player.bitrateBps, deadlineUs: -1, nowUs });
    }
    const bytesPerUsAt = (atUs: number): number =>
      (o.fade !== undefined && atUs >= o.fade.startUs && atUs < o.fade.endUs ? o.fade.rateBps : o.linkRateBps) / 8 / 1e6;
    while (nowUs < o.durationUs) {
      const canSend = controller.bytesInFlight() + o.packetBytes <= controller.cwndBytes();
      const sendAtUs = canSend ? nextSendUs : Infinity;
      const feedbackAtUs = feedback[0]?.timeUs ?? Infinity;
      nowUs = Math.max(nowUs, Math.min(sendAtUs, feedbackAtUs, nextTickUs));
      if (nowUs === nextTickUs) {
        emit({ kind: 'tick', nowUs });
        nextTickUs += TICK_INTERVAL_US;
        if (o.video === true && nowUs % VIDEO_REPORT_US === 0) {
          const bufferMs = [500, 3000, 8000, 15000, 30000][Math.floor(random() * 5)]!;
          emit({ kind: 'app_state', appLimited: random() < 0.2, bufferMs, bitrateBps: 3e6, deadlineUs: bufferMs * 1000, nowUs });
        } else if (o.player !== undefined && nowUs % VIDEO_REPORT_US === 0) {
          emit({ kind: 'app_state', appLimited: false, bufferMs: o.player.bufferMs, bitrateBps: o.player.bitrateBps, deadlineUs: -1, nowUs });
        }
      } else if (nowUs === feedbackAtUs) {
        const f = feedback.shift()!;
        if (f.kind === 'ack') {
          emit({ kind: 'ack', pn: f.pn, rttUs: f.rttUs, recvTimeUs: f.recvTimeUs, nowUs });
          acked.push(f.pn);
        } else {
          emit({ kind: 'loss', pn: f.pn, nowUs });
        }
        if (o.odd) injectOddEvent(random, emit, nowUs, acked, nextPn);
      } else {
        const pn = nextPn++;
        const bytesPerUs = bytesPerUsAt(nowUs);
        emit({ kind: 'sent', pn, bytes: o.packetBytes, nowUs });
        const queuedBytes = Math.max(0, linkFreeAtUs - nowUs) * bytesPerUs;
        if (queuedBytes + o.packetBytes > o.bufferBytes || random() < o.lossRate) {
          // Declared lost a little after an ack would have come back (RFC 9002-like, simplified).
          insertSorted(feedback, { timeUs: nowUs + Math.round(o.baseRttUs * 1.25) + 1000, kind: 'loss', pn, rttUs: 0, recvTimeUs: 0 });
        } else {
          const departureUs = Math.max(nowUs, linkFreeAtUs) + Math.ceil(o.packetBytes / bytesPerUs);
          linkFreeAtUs = departureUs;
          const ackAtUs = departureUs + o.baseRttUs;
          insertSorted(feedback, {
            timeUs: ackAtUs, kind: 'ack', pn, rttUs: ackAtUs - nowUs, recvTimeUs: departureUs + o.baseRttUs / 2,
          });
        }
        const rateBytesPerSec = Math.max(controller.pacingRateBytesPerSec(), 1000);
        nextSendUs = nowUs + Math.max(1, Math.round((o.packetBytes / rateBytesPerSec) * 1e6));
      }
    }
  } finally {
    controller.destroy();
  }
  return lines;
}

function injectOddEvent(random: () => number, emit: (l: ScriptLine) => void, nowUs: number, acked: number[], nextPn: number): void {
  const draw = random();
  if (draw > 0.06) return;
  const someAcked = acked.length > 0 ? acked[Math.floor(random() * acked.length)]! : 0;
  const kind = Math.floor(random() * 10);
  switch (kind) {
    case 0: emit({ kind: 'ack', pn: someAcked, rttUs: 30000, recvTimeUs: 0, nowUs }); break; // duplicate ack
    case 1: emit({ kind: 'ack', pn: nextPn + 1_000_000, rttUs: 30000, recvTimeUs: 0, nowUs }); break; // never sent
    case 2: emit({ kind: 'loss', pn: someAcked, nowUs }); break; // loss after ack
    case 3: emit({ kind: 'tick', nowUs: nowUs - 2000 }); break; // clock going backwards
    case 4: emit({ kind: 'ack', pn: nextPn + 5, rttUs: 0, recvTimeUs: 0, nowUs: nowUs + 0.75 }); break; // fractional time
    case 5: emit({ kind: 'tick', nowUs: Number.NaN }); break; // refused at the boundary
    case 6: emit({ kind: 'loss', pn: Number.POSITIVE_INFINITY, nowUs }); break; // refused
    case 7: emit({ kind: 'sent', pn: nextPn + 2_000_000, bytes: 1.5, nowUs }); break; // refused: fractional bytes
    case 8: emit({ kind: 'ack', pn: someAcked, rttUs: -5, recvTimeUs: -1, nowUs }); break; // negative RTT
    default: emit({ kind: 'app_state', appLimited: true, bufferMs: -1, bitrateBps: -1, deadlineUs: -1, nowUs }); break;
  }
}
