// A bounded hostile client for the `garbage` case (issue 20): at a given datagram rate for a given time it sends the
// origin what a broken or malicious peer would — random UDP datagrams and fake QUIC Initials at its port, and inside
// WebTransport sessions random datagrams, forged ACKs (ranges that cannot be), out-of-window ACKs (numbers never
// sent), optimistic ACKs (claiming what never arrived), malformed request frames, hostile CMCD values and
// path-traversal paths. Each session runs one attack and waits for the origin to close it; the close code and reason
// are what the case checks. Stops by itself; sends only to this host (local-target.ts).
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { encodeAckDatagram, encodeStreamFrame } from '@pcc-stream/protocol';
import { PccClient } from '@pcc-stream/server/client';
import { assertLocalTarget } from './local-target.ts';

/** Bounds every run obeys whatever it is asked for. */
export const MAX_HOSTILE_RATE_PER_S = 50_000;
export const MAX_HOSTILE_DURATION_S = 300;
export const MAX_HOSTILE_SESSIONS = 64;
/** The send loop's period: rate × this many datagrams go out per tick. */
const TICK_MS = 5;
/** Share of each tick's datagrams for the open sessions' attacks; raw UDP takes the rest (and any the sessions leave). */
const SESSION_SHARE = 0.5;
/** A session the origin has not closed this long after its attack began is closed by us and counted as such. */
const SESSION_VERDICT_MS = 5000;
/** Bytes of body an optimistic-ACK session receives before it starts claiming more, and how long it waits for them. */
const OPTIMISTIC_AFTER_BYTES = 8_000;
const OPTIMISTIC_WAIT_MS = 10_000;
/** Requests one request-attack session sends at most, and how many it keeps in flight: enough to pass the origin's
 *  refused-request limit (32 by default) quickly, bounded whatever the origin does. */
const MAX_ATTACK_REQUESTS = 200;
const ATTACK_REQUEST_LANES = 4;
/** At most this much of the rate's backlog is sent in one tick: a generator the machine cannot run at full rate sends
 *  less (and reports it) instead of blocking its own event loop with ever larger bursts. */
const MAX_CATCH_UP_S = 0.02;
/** Raw datagrams are cut from a pool of random buffers made once: crypto-quality randomness per datagram would cost
 *  the generator more than the origin. */
const RAW_POOL_SIZE = 512;
/** QUIC v1 (RFC 9000): the version field of the fake Initials. */
const QUIC_V1 = 0x0000_0001;

export const ATTACKS = [
  'random-datagram', 'forged-ack', 'out-of-window-ack', 'optimistic-ack', 'malformed-request', 'hostile-cmcd', 'path-traversal',
] as const;
export type Attack = (typeof ATTACKS)[number];

export interface HostileOptions {
  host: string;
  port: number;
  certSha256Hex: string;
  ratePerS: number;
  durationS: number;
  /** Concurrent hostile sessions (each one attack at a time). */
  sessions: number;
  /** A file the origin serves, for attacks that need a real transfer first (optimistic ACKs). */
  fetchPath: string;
  /** Local address to send from (default 127.0.0.1 when the target is IPv4). */
  sourceAddress?: string;
  log?: (event: string, detail: Record<string, unknown>) => void;
}

export interface HostileSummary {
  duration_s: number;
  datagrams_sent: number;
  datagrams_per_s: number;
  raw_udp_sent: number;
  session_datagrams_sent: number;
  requests_sent: number;
  sessions_opened: number;
  connect_failures: number;
  /** Sessions the origin closed, by attack and close code: `${attack} ${code}` → count. */
  closed_by_origin: Record<string, number>;
  /** Sessions still open SESSION_VERDICT_MS after their attack reached the origin (closed by us): tolerated. */
  not_closed: Record<string, number>;
  /** Sessions whose attack never went out (the run's deadline came first): no verdict either way. */
  undelivered: Record<string, number>;
  /** The first reason the origin gave for each attack. */
  reasons: Record<string, string>;
}

type Session = PccClient['quic'];

/** A datagram source of one open session: the next datagram of its attack, or null when it has none now. */
type Source = () => Uint8Array | null;

function ack(smallest: number, largest: number): Uint8Array {
  return encodeAckDatagram({ ranges: [{ smallest, largest }], ackDelayUs: 0, largestRecvTimeUs: 1, windowBytes: 1 << 20 });
}

/** An ACK whose first range runs below packet 0 (its gap field patched): a range that cannot be. */
function forgedAck(): Uint8Array {
  const bytes = ack(0, 10);
  new DataView(bytes.buffer).setUint32(23, 0xffff_ffff);
  return bytes;
}

/** A UDP payload that parses as a QUIC v1 Initial long header with random connection IDs and an undecryptable body:
 *  the origin's QUIC stack must derive keys and fail to open it. */
function fakeInitial(): Uint8Array {
  const out = randomBytes(1200);
  out[0] = 0xc0 | (out[0]! & 0x0f);
  out.writeUInt32BE(QUIC_V1, 1);
  out[5] = 8; // DCID length, DCID at 6..13
  out[14] = 8; // SCID length, SCID at 15..22
  out[23] = 0; // token length
  out.writeUInt16BE(0x4000 | (1200 - 26), 24); // payload length (2-byte varint)
  return out;
}

const TRAVERSAL_PATHS = [
  '/../../../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2f..%2fetc/shadow', '/....//....//etc/hosts',
  '/%252e%252e/%252e%252e/etc/passwd', '/media/../../../proc/self/environ', '/a\\..\\..\\windows\\win.ini', '/%00../../etc/passwd',
  '/.%2e/.%2e/root/.ssh/id_rsa', `/${'../'.repeat(600)}etc/passwd`, '//etc/passwd', '/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd',
];

function hostileCmcdPath(i: number): string {
  const values = [
    'bl=-5', 'br=1e400', 'bl=99999999999999999999999', `sid="${'A'.repeat(900)}"`, 'd=NaN', 'mtp=-1', 'dl=3600001',
    'nor="../../../etc/passwd"', 'nrr="9-1"', 'bl', 'br=12,br=13', `${'x'.repeat(64)}=1`, 'tb=1.5.5', 'bl=5,,,br=7', '%00=1',
    `nor="${'%2e%2e/'.repeat(80)}x"`, 'su=?2', 'st=💥', Array.from({ length: 40 }, (_, k) => `k${k}=1`).join(','),
  ];
  return `/no-such-segment-${i}.m4s?CMCD=${encodeURIComponent(values[i % values.length]!)}`;
}

class Counter {
  readonly counts: Record<string, number> = {};
  add(key: string): void {
    this.counts[key] = (this.counts[key] ?? 0) + 1;
  }
}

export async function runHostileClient(options: HostileOptions): Promise<HostileSummary> {
  assertLocalTarget(options.host);
  if (!(options.ratePerS > 0 && options.ratePerS <= MAX_HOSTILE_RATE_PER_S)) throw new Error(`rate must be 1..${MAX_HOSTILE_RATE_PER_S} datagrams/s`);
  if (!(options.durationS > 0 && options.durationS <= MAX_HOSTILE_DURATION_S)) throw new Error(`duration must be 0..${MAX_HOSTILE_DURATION_S} s`);
  if (!(Number.isInteger(options.sessions) && options.sessions >= 0 && options.sessions <= MAX_HOSTILE_SESSIONS)) {
    throw new Error(`sessions must be 0..${MAX_HOSTILE_SESSIONS}`);
  }
  const source = options.sourceAddress ?? (options.host.includes(':') ? '::1' : '127.0.0.1');
  assertLocalTarget(source);
  const origin = `https://${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`;
  const startMs = Date.now();
  const endMs = startMs + options.durationS * 1000;
  const maxDatagrams = Math.ceil(options.ratePerS * options.durationS);
  const closedByOrigin = new Counter();
  const notClosed = new Counter();
  const undelivered = new Counter();
  const reasons: Record<string, string> = {};
  const sources = new Set<Source>();
  let rawSent = 0;
  let sessionSent = 0;
  let requestsSent = 0;
  let opened = 0;
  let connectFailures = 0;

  const rawPool = Array.from({ length: RAW_POOL_SIZE }, (_, i) => (i % 2 === 0 ? randomBytes(1400) : fakeInitial()));
  const udp: Socket = createSocket(options.host.includes(':') ? 'udp6' : 'udp4');
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(0, source, () => resolve());
  });
  udp.on('error', () => { /* ICMP errors of a closed port while the origin restarts: keep going */ });

  const running = (): boolean => Date.now() < endMs && rawSent + sessionSent < maxDatagrams;

  /** Sends a session's datagram; false once the session cannot take more (closed). */
  const sendOn = (quic: Session, bytes: Uint8Array): boolean => {
    try {
      quic.sendDatagram(bytes.byteLength > quic.maxDatagramSize() ? bytes.subarray(0, quic.maxDatagramSize()) : bytes);
      return true;
    } catch {
      return false;
    }
  };

  /** Waits for the origin's verdict on a session; closes it ourselves when none comes. */
  const verdict = async (attack: Attack, quic: Session, delivered: () => boolean = () => true): Promise<void> => {
    const closed = await Promise.race([quic.closed(), new Promise<null>((r) => setTimeout(() => r(null), SESSION_VERDICT_MS))]);
    if (closed && closed.code !== 0) {
      closedByOrigin.add(`${attack} ${closed.code}`);
      reasons[attack] ??= `${closed.code}: ${closed.reason}`;
    } else {
      (delivered() ? notClosed : undelivered).add(attack);
      try {
        quic.close(0, 'hostile client done');
      } catch {
        /* already closed */
      }
    }
  };

  const datagramAttack = async (attack: Attack, make: () => Uint8Array): Promise<void> => {
    const { quic } = await PccClient.connect(origin, { certSha256Hex: options.certSha256Hex, localAddress: source, connectTimeoutMs: 5000 });
    opened++;
    let open = true;
    let sent = 0;
    const src: Source = () => (open ? make() : null);
    const sendVia = (): Source => () => {
      let d: Uint8Array | null;
      try {
        d = src();
      } catch (err) {
        // A generator bug ends this session's datagrams, not the run.
        options.log?.('hostile-generator-failed', { attack, error: err instanceof Error ? err.message : String(err) });
        open = false;
        return null;
      }
      if (d && !sendOn(quic, d)) open = false;
      else if (d) sent++;
      return d;
    };
    const pump = sendVia();
    sources.add(pump);
    try {
      await verdict(attack, quic, () => sent > 0);
    } finally {
      open = false;
      sources.delete(pump);
    }
  };

  const malformedRequest = async (): Promise<void> => {
    const { quic } = await PccClient.connect(origin, { certSha256Hex: options.certSha256Hex, localAddress: source, connectTimeoutMs: 5000 });
    opened++;
    const frames = [
      Uint8Array.of(0x10, 0x00, 0x05, 9, 9, 9, 9, 9), encodeStreamFrame({ type: 'cancel', requestId: 1 }), randomBytes(64),
      Uint8Array.of(0x01, 0xff, 0xff, 0xff, 0xff),
    ];
    let written = false;
    try {
      const bi = await quic.openBi();
      requestsSent++;
      await bi.write(frames[Math.floor(Math.random() * frames.length)]!);
      // Finished, so a frame cut short is decided at once (a half-sent frame left open waits out the origin's
      // request timeout, longer than SESSION_VERDICT_MS: server/test covers that stall).
      await bi.finish();
      written = true;
    } catch {
      /* closed already */
    }
    await verdict('malformed-request', quic, () => written);
  };

  const requestAttack = async (attack: 'hostile-cmcd' | 'path-traversal'): Promise<void> => {
    const client = await PccClient.connect(origin, { certSha256Hex: options.certSha256Hex, localAddress: source, connectTimeoutMs: 5000 });
    opened++;
    let isClosed = false;
    void client.quic.closed().then(() => { isClosed = true; });
    let next = 0;
    await Promise.all(Array.from({ length: ATTACK_REQUEST_LANES }, async () => {
      for (let i = next++; !isClosed && i < MAX_ATTACK_REQUESTS; i = next++) {
        requestsSent++;
        const path = attack === 'hostile-cmcd' ? hostileCmcdPath(i) : TRAVERSAL_PATHS[i % TRAVERSAL_PATHS.length]!;
        await client.fetch(path).catch(() => null);
      }
    }));
    await verdict(attack, client.quic);
    client.close();
  };

  const optimisticAck = async (): Promise<void> => {
    const client = await PccClient.connect(origin, { certSha256Hex: options.certSha256Hex, localAddress: source, connectTimeoutMs: 5000 });
    opened++;
    const rx = client.datagramReceiver;
    let open = true;
    // Claims everything up to the largest number seen, and then numbers ahead of it: the skipped numbers or the
    // unsent ones give the lie away (RFC 9000 §21.4).
    let claims = 0;
    const pump: Source = () => {
      if (!open || rx.bytesReceived < OPTIMISTIC_AFTER_BYTES) return null;
      const largest = rx.largestReceived;
      const d = ack(0, claims++ % 2 === 0 ? largest : largest + 64);
      if (!sendOn(client.quic, d)) open = false;
      return d;
    };
    requestsSent++;
    const fetch = client.fetch(options.fetchPath, { onData: () => {} }).catch(() => null);
    // The claims start once some of the body arrived; the verdict clock starts with them.
    const waitUntil = Date.now() + OPTIMISTIC_WAIT_MS;
    while (rx.bytesReceived < OPTIMISTIC_AFTER_BYTES && Date.now() < waitUntil && client.closeInfo === null) await new Promise((r) => setTimeout(r, 20));
    sources.add(pump);
    try {
      await verdict('optimistic-ack', client.quic, () => claims > 0);
    } finally {
      open = false;
      sources.delete(pump);
      client.close();
      await fetch;
    }
  };

  const runAttack = (attack: Attack): Promise<void> => {
    switch (attack) {
      case 'random-datagram': return datagramAttack(attack, () => rawPool[Math.floor(Math.random() * RAW_POOL_SIZE)]!.subarray(0, 1 + Math.floor(Math.random() * 1100)));
      case 'forged-ack': return datagramAttack(attack, forgedAck);
      case 'out-of-window-ack': return datagramAttack(attack, () => {
        const largest = 2 ** 40 + Math.floor(Math.random() * 1e6);
        return ack(largest - 100, largest);
      });
      case 'optimistic-ack': return optimisticAck();
      case 'malformed-request': return malformedRequest();
      case 'hostile-cmcd':
      case 'path-traversal': return requestAttack(attack);
    }
  };

  const worker = async (w: number): Promise<void> => {
    for (let i = w; running(); i++) {
      const attack = ATTACKS[i % ATTACKS.length]!;
      try {
        await runAttack(attack);
      } catch (err) {
        connectFailures++;
        options.log?.('hostile-connect-failed', { attack, error: err instanceof Error ? err.message : String(err) });
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };

  // The datagram pump: each tick sends what the rate allows, the sessions' attacks first (up to their share).
  const pump = async (): Promise<void> => {
    while (running()) {
      const dueTotal = Math.min(maxDatagrams, Math.floor(((Date.now() - startMs) / 1000) * options.ratePerS));
      let due = Math.min(dueTotal - rawSent - sessionSent, Math.ceil(options.ratePerS * MAX_CATCH_UP_S));
      if (due < 0) due = 0;
      let sessionBudget = Math.floor(due * SESSION_SHARE);
      for (let progress = true; sessionBudget > 0 && progress;) {
        progress = false;
        for (const src of sources) {
          if (sessionBudget <= 0) break;
          if (src()) {
            sessionSent++;
            sessionBudget--;
            due--;
            progress = true;
          }
        }
      }
      for (; due > 0; due--) {
        const pooled = rawPool[rawSent % RAW_POOL_SIZE]!;
        // Junk of any length; fake Initials whole (QUIC pads Initials to 1200 B, shorter ones are dropped unread).
        const bytes = rawSent % 2 === 0 ? pooled.subarray(0, 1 + Math.floor(Math.random() * pooled.length)) : pooled;
        udp.send(bytes, options.port, options.host);
        rawSent++;
      }
      await new Promise((r) => setTimeout(r, TICK_MS));
    }
  };

  await Promise.all([pump(), ...Array.from({ length: options.sessions }, (_, w) => worker(w))]);
  await new Promise<void>((resolve) => udp.close(() => resolve()));
  const durationS = (Date.now() - startMs) / 1000;
  const sent = rawSent + sessionSent;
  return {
    duration_s: durationS, datagrams_sent: sent, datagrams_per_s: sent / Math.min(durationS, options.durationS),
    raw_udp_sent: rawSent, session_datagrams_sent: sessionSent, requests_sent: requestsSent, sessions_opened: opened,
    connect_failures: connectFailures, closed_by_origin: closedByOrigin.counts, not_closed: notClosed.counts,
    undelivered: undelivered.counts, reasons,
  };
}
