// `npm run -s fetch -- https://HOST:PORT/path --cc vivace --cert-hash HEX --out FILE --json`
// Prints {bytes, seconds, goodput_mbps, sha256, rtt_ms_p50, rtt_ms_p95, retransmitted_bytes}.
import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { userPath } from '@pcc-stream/protocol/node/user-path';
import {
  QUIC_CONTROLLERS, SCHEME_TRANSPORTS, TCP_CONTROLLERS, WASM_CONTROLLERS, isSchemeTransport, schemeFor,
} from '@pcc-stream/protocol';
import { MAX_CONNECTION_ID_BYTES } from '@pcc-stream/quic';
import { PccClient, QUIC_CONNECTION_ID_BYTES } from '../client/pcc-client.ts';
import { tcpFetch } from '../client/tcp-fetch.ts';
import { errorMessage } from '../log.ts';
import { parseFlags, usage, UsageError, type FlagSpec } from './args.ts';

const specs: Record<string, FlagSpec> = {
  transport: { type: 'string', help: SCHEME_TRANSPORTS.join(' | '), default: 'datagram' },
  cc: { type: 'string', help: `${WASM_CONTROLLERS.join('|')} (datagram), quinn's ${QUIC_CONTROLLERS.join('|')} (quic-stream), the kernel's ${TCP_CONTROLLERS.join('|')} (tcp)` },
  'cert-hash': { type: 'string', help: 'SHA-256 hex of the origin certificate (http://HOST:HTTP_PORT/cert-hash)' },
  param: { type: 'list', help: 'controller parameter NAME=VALUE (repeatable), e.g. rate_bps=5e7' },
  range: { type: 'string', help: 'byte range START-END (inclusive) or START-' },
  out: { type: 'string', help: 'write the body to this file' },
  json: { type: 'boolean', help: 'print the result as one JSON object' },
  'max-seconds': { type: 'string', help: 'stop after this many seconds and report what arrived (bulk downloads)' },
  'quic-cid-bytes': { type: 'number', help: `length of the QUIC connection IDs the client issues, 0..${MAX_CONNECTION_ID_BYTES}`, default: QUIC_CONNECTION_ID_BYTES },
  'quic-ack-frequency': { type: 'string', help: 'on = ask the origin for a QUIC ACK every 16 client packets, not every 2nd; on|off', default: 'on' },
  help: { type: 'boolean', help: 'show this help' },
};

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

async function main(): Promise<number> {
  const { values: v, positional } = parseFlags(process.argv.slice(2), specs);
  if (v.help) {
    console.log(usage('usage: npm run -s fetch -- https://HOST:PORT/path [options]', specs));
    return 0;
  }
  if (positional.length !== 1) throw new UsageError('give exactly one URL');
  const url = new URL(positional[0]!);
  if (url.protocol !== 'https:') throw new UsageError('the URL must be https://');
  const certHash = v['cert-hash'] as string | undefined;
  if (!certHash || !/^[0-9a-fA-F:]{64,95}$/.test(certHash)) throw new UsageError('--cert-hash HEX (64 hex digits) is required');
  const transport = v.transport as string;
  if (!isSchemeTransport(transport)) throw new UsageError(`--transport must be one of ${SCHEME_TRANSPORTS.join(', ')}`);
  if (v.cc !== undefined) {
    const scheme = schemeFor(transport, v.cc as string);
    if (!scheme.ok) throw new UsageError(`--cc: ${scheme.error.message}`);
  }
  let range: { start: number; end?: number } | undefined;
  if (v.range) {
    const m = /^(\d+)-(\d*)$/.exec(v.range as string);
    if (!m) throw new UsageError('--range must be START-END or START-');
    range = m[2] ? { start: Number(m[1]), end: Number(m[2]) } : { start: Number(m[1]) };
  }
  const params: Record<string, number> = {};
  for (const p of v.param as string[]) {
    const m = /^([a-z][a-z0-9_]*)=(.+)$/.exec(p);
    if (!m || !Number.isFinite(Number(m[2]))) throw new UsageError(`--param ${p}: expected NAME=NUMBER`);
    params[m[1]!] = Number(m[2]);
  }
  let deadline: AbortController | null = null;
  if (v['max-seconds'] !== undefined) {
    const seconds = Number(v['max-seconds']);
    if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError('--max-seconds must be a positive number');
    deadline = new AbortController();
    setTimeout(() => deadline?.abort(), seconds * 1000).unref();
  }
  const signal = deadline?.signal;
  const hash = createHash('sha256');
  // --out is the user's path: relative to the directory the command was run in (npm runs this in server/).
  const outPath = v.out ? userPath(v.out as string) : null;
  if (outPath) mkdirSync(dirname(outPath), { recursive: true });
  let out: WriteStream | null = outPath ? createWriteStream(outPath) : null;
  const onData = (chunk: Uint8Array): void => {
    hash.update(chunk);
    out?.write(chunk);
  };
  const cc = v.cc as string | undefined;
  const started = performance.now();
  let status: number;
  let bytes: number;
  let retransmittedBytes: number | null = null;
  let rttSamples: number[] = [];
  let extra: Record<string, unknown> = {};
  if (transport === 'tcp') {
    const target = new URL(url);
    if (cc) target.searchParams.set('cc', cc);
    const r = await tcpFetch(target.toString(), certHash.replace(/:/g, ''), onData, range, signal);
    status = r.status;
    bytes = r.bytes;
    extra = { tcp_congestion: r.tcpCongestion, stopped_at_deadline: r.aborted };
  } else {
    const ackFrequency = v['quic-ack-frequency'] as string;
    if (ackFrequency !== 'on' && ackFrequency !== 'off') throw new UsageError(`--quic-ack-frequency must be on or off, got ${ackFrequency}`);
    const client = await PccClient.connect(url.origin, {
      certSha256Hex: certHash.replace(/:/g, ''), transport: transport as 'datagram' | 'quic-stream', ...(cc ? { cc } : {}), params,
      quicConnectionIdBytes: v['quic-cid-bytes'] as number, quicRequestAckFrequency: ackFrequency === 'on',
    });
    try {
      const path = url.pathname + url.search;
      const r = await client.fetch(path, { onData, ...(range ? { range } : {}), ...(signal ? { signal } : {}) });
      status = r.status;
      bytes = r.bytes;
      if (r.status >= 300) extra = { reason: r.reason };
      retransmittedBytes = r.done?.retransmittedBytes ?? (transport === 'quic-stream' ? client.quic.stats().lostBytes : null);
      rttSamples = client.rttSamplesUs.slice().sort((a, b) => a - b);
      extra = { ...extra, packets_lost: r.done?.packetsLost ?? null, acks_sent: client.acksSent, stopped_at_deadline: r.aborted };
    } finally {
      client.close();
    }
  }
  const seconds = (performance.now() - started) / 1000;
  if (out) await new Promise((resolve) => out!.end(resolve));
  out = null;
  const p50 = percentile(rttSamples, 0.5);
  const p95 = percentile(rttSamples, 0.95);
  const result = {
    status, bytes, seconds: Math.round(seconds * 1e6) / 1e6, goodput_mbps: Math.round((bytes * 8) / seconds / 1e3) / 1e3,
    sha256: hash.digest('hex'), rtt_ms_p50: p50 === null ? null : p50 / 1000, rtt_ms_p95: p95 === null ? null : p95 / 1000,
    retransmitted_bytes: retransmittedBytes, transport, cc: cc ?? null, ...extra,
  };
  if (v.json) console.log(JSON.stringify(result));
  else for (const [k, val] of Object.entries(result)) console.log(`${k.padEnd(20)} ${val}`);
  return status >= 200 && status < 300 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof UsageError) console.error(`fetch: ${err.message}\n\n${usage('usage: npm run -s fetch -- https://HOST:PORT/path [options]', specs)}`);
    else console.error(JSON.stringify({ event: 'fetch.failed', error: errorMessage(err) }));
    process.exit(err instanceof UsageError ? 2 : 1);
  },
);
