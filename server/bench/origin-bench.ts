// Origin benchmarks over loopback (figures printed and written to <repo>/.cache/bench/origin-bench.{json,csv,svg}):
//  1. single-session goodput with `fixed` (rate far above what the machine can do) and with `vivace`, over
//     the whole transfer and after its first second, and the origin's CPU seconds per GB sent (after a
//     30 MB warm-up transfer of each, so that neither process runs cold JIT code);
//  2. pacing accuracy of `fixed` at 50 and 200 Mbit/s over 1 s windows on the origin's clock, and the
//     largest burst handed to QUIC against the max(2 packets, 1 ms of rate) cap;
//  3. origin memory per idle session.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PccClient } from '../src/client/pcc-client.ts';

const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(serverDir, '..', '.cache', 'bench');
// --quick: a 100 MB object and shorter runs; --goodput-only: skip pacing and memory; --profile: the origin writes
// a V8 CPU profile (.cpuprofile, open in Chrome DevTools) to <repo>/.cache/bench/profiles when it exits;
// --mi-log: per-MI controller telemetry (JSONL per session) to <repo>/.cache/bench/mi-log.
const args = new Set(process.argv.slice(2));
if (args.has('--help') || args.has('-h')) {
  console.log('usage: npm run -s bench -w server [-- --quick] [--goodput-only] [--profile] [--mi-log]\n'
    + '  goodput, CPU s/GB, pacing error, bursts and memory per idle session of the origin over loopback; writes .cache/bench/');
  process.exit(0);
}
const quick = args.has('--quick');
const goodputOnly = args.has('--goodput-only');
const profile = args.has('--profile');
const miLog = args.has('--mi-log');
for (const a of args) if (!['--quick', '--goodput-only', '--profile', '--mi-log'].includes(a)) {
  console.error(`origin-bench: unknown option ${a} (known: --quick, --goodput-only, --profile, --mi-log)`);
  process.exit(2);
}
const OBJECT_BYTES = quick ? 100_000_000 : 300_000_000;

function progress(event: string, fields: Record<string, unknown> = {}): void {
  process.stderr.write(JSON.stringify({ time: new Date().toISOString(), event, ...fields }) + '\n');
}

interface Origin { quic: string; http: number; hash: string; stop: () => Promise<void> }

async function startOrigin(mediaDir: string, extra: string[]): Promise<Origin> {
  const profiling = profile ? ['--cpu-prof', '--cpu-prof-dir', join(outDir, 'profiles')] : [];
  const child = spawn(process.execPath, ['--expose-gc', ...profiling, '--import', 'tsx', 'src/cli/origin-main.ts', '--media', mediaDir, '--port', '0',
    '--http-port', '0', '--https-port', '-1', '--tcp-port', '-1', '--log-level', 'warn', ...(miLog ? ['--log-dir', join(outDir, 'mi-log')] : []), ...extra], { cwd: serverDir, stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = await new Promise<Record<string, number | string>>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.includes('"ready"'));
      if (line) resolve(JSON.parse(line) as Record<string, number | string>);
    });
    child.once('exit', (code) => reject(new Error(`origin exited ${code}`)));
  });
  return {
    quic: `https://127.0.0.1:${ready.quic_port}`, http: ready.http_port as number, hash: ready.cert_sha256 as string,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

async function status(o: Origin, gc = false): Promise<Record<string, number>> {
  return (await (await fetch(`http://127.0.0.1:${o.http}/status${gc ? '?gc=1' : ''}`)).json()) as Record<string, number>;
}

async function goodput(o: Origin, cc: string, params: Record<string, number>, path = '/object.bin'): Promise<Record<string, number | string>> {
  const client = await PccClient.connect(o.quic, { certSha256Hex: o.hash, cc, params });
  const before = await status(o);
  const hash = createHash('sha256');
  const t0 = performance.now();
  // Bytes received by the end of the first second: the rest of the transfer gives the rate once the
  // controller has found it (slow start and the first probing rounds excluded).
  let received = 0;
  let afterFirstSecond: { ms: number; bytes: number } | null = null;
  const r = await client.fetch(path, {
    onData: (c) => {
      hash.update(c);
      received += c.length;
      if (afterFirstSecond === null && performance.now() - t0 >= 1000) afterFirstSecond = { ms: performance.now(), bytes: received };
    },
  });
  const endMs = performance.now();
  const seconds = (endMs - t0) / 1000;
  const mark = afterFirstSecond as { ms: number; bytes: number } | null;
  const afterFirstSecondMbps = mark && endMs > mark.ms ? ((r.bytes - mark.bytes) * 8) / ((endMs - mark.ms) / 1000) / 1e6 : NaN;
  const after = await status(o);
  const sessionStats = (after as unknown as { session_list: Array<Record<string, number>> }).session_list.find((s) => s.id === client.quic.id) ?? {};
  client.close();
  const cpuSeconds = (after.cpu_us! - before.cpu_us!) / 1e6;
  const sentGb = (sessionStats.sent_bytes ?? r.bytes) / 1e9;
  return {
    cc, bytes: r.bytes, seconds: +seconds.toFixed(3), goodput_mbps: +((r.bytes * 8) / seconds / 1e6).toFixed(1),
    after_first_s_mbps: +afterFirstSecondMbps.toFixed(1),
    origin_cpu_s: +cpuSeconds.toFixed(2), origin_cpu_s_per_gb: +(cpuSeconds / sentGb).toFixed(2),
    origin_cpu_share: +(cpuSeconds / seconds).toFixed(2), retransmitted_bytes: r.done?.retransmittedBytes ?? -1,
    srtt_us: sessionStats.srtt_us ?? -1, intact: hash.digest('hex') === (path === '/object.bin' ? objectSha : warmupSha) ? 'yes' : 'NO',
  };
}

async function pacing(o: Origin, rateBps: number): Promise<{ summary: Record<string, number>; windows: number[] }> {
  const client = await PccClient.connect(o.quic, { certSha256Hex: o.hash, cc: 'fixed', params: { rate_bps: rateBps } });
  const samples: Array<[number, number]> = [];
  const stop = await client.telemetry((r) => {
    if (typeof r.t_us === 'number' && typeof r.sent_datagram_bytes === 'number') samples.push([r.t_us, r.sent_datagram_bytes]);
  });
  const abort = new AbortController();
  const fetching = client.fetch('/object.bin', { signal: abort.signal, onData: () => undefined }).catch(() => null);
  await new Promise((r) => setTimeout(r, quick ? 4000 : 7000));
  abort.abort();
  await fetching;
  const st = await status(o);
  const sessionStats = (st as unknown as { session_list: Array<Record<string, number>> }).session_list.find((s) => s.id === client.quic.id) ?? {};
  stop();
  client.close();
  // 1 s windows from 0.5 s after the first byte (telemetry lines come every 100 ms).
  const first = samples.find((s) => s[1] > 0)?.[0] ?? 0;
  const at = (t: number): number => {
    let i = 0;
    while (i + 1 < samples.length && samples[i + 1]![0] <= t) i++;
    const [t0, b0] = samples[i]!;
    const n = samples[i + 1];
    return n ? b0 + ((n[1] - b0) * (t - t0)) / (n[0] - t0) : b0;
  };
  const windows: number[] = [];
  for (let t = first + 500_000; t + 1_000_000 <= samples[samples.length - 1]![0]; t += 1_000_000) windows.push((at(t + 1_000_000) - at(t)) * 8);
  const errors = windows.map((w) => Math.abs(w - rateBps) / rateBps);
  const capBytes = Math.max(2 * 1200, rateBps / 8 / 1000);
  return {
    summary: {
      rate_mbps: rateBps / 1e6, windows_1s: windows.length,
      mean_abs_error_pct: +((errors.reduce((a, b) => a + b, 0) / Math.max(1, errors.length)) * 100).toFixed(2),
      max_abs_error_pct: +(Math.max(0, ...errors) * 100).toFixed(2),
      max_burst_bytes: sessionStats.max_burst_bytes ?? -1, burst_cap_bytes: capBytes,
    },
    windows,
  };
}

async function idleMemory(o: Origin, count: number): Promise<Record<string, number>> {
  const before = await status(o, true);
  const clients: PccClient[] = [];
  for (let i = 0; i < count; i++) clients.push(await PccClient.connect(o.quic, { certSha256Hex: o.hash, cc: 'vivace' }));
  await new Promise((r) => setTimeout(r, 500));
  const after = await status(o, true);
  // CPU of the origin while all those sessions sit idle.
  await new Promise((r) => setTimeout(r, 3000));
  const idle = await status(o);
  for (const c of clients) c.close();
  return {
    sessions: count, rss_per_session_bytes: Math.round((after.rss_bytes! - before.rss_bytes!) / count),
    heap_per_session_bytes: Math.round((after.heap_used_bytes! - before.heap_used_bytes!) / count),
    idle_cpu_share: +((idle.cpu_us! - after.cpu_us!) / 1e6 / 3).toFixed(4),
  };
}

function svg(series: Array<{ label: string; rateBps: number; windows: number[] }>): string {
  const w = 720;
  const h = 260;
  const rows = series.map((s, k) => {
    const y0 = 30 + k * 110;
    const max = s.rateBps * 1.2;
    const pts = s.windows.map((v, i) => `${50 + (i * (w - 70)) / Math.max(1, s.windows.length - 1)},${y0 + 90 - (v / max) * 90}`).join(' ');
    const target = y0 + 90 - (s.rateBps / max) * 90;
    return `<text x="50" y="${y0 - 6}" font-size="12">${s.label}: sending rate per second (line = target)</text>` +
      `<line x1="50" x2="${w - 20}" y1="${target}" y2="${target}" stroke="#999" stroke-dasharray="4"/>` +
      `<polyline fill="none" stroke="#1f77b4" stroke-width="1.5" points="${pts}"/>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif"><rect width="100%" height="100%" fill="white"/>${rows.join('')}</svg>\n`;
}

const mediaBase = mkdtempSync(join(tmpdir(), 'pcc-origin-bench-'));
const mediaDir = join(mediaBase, 'media');
mkdirSync(mediaDir);
const object = randomBytes(OBJECT_BYTES);
const objectSha = createHash('sha256').update(object).digest('hex');
writeFileSync(join(mediaDir, 'object.bin'), object);
// A first transfer of each kind runs before the measured ones: both processes start with cold JIT code,
// which at first handles a few hundred Mbit/s and would be measured as the controller's doing.
const warmup = object.subarray(0, 30_000_000);
const warmupSha = createHash('sha256').update(warmup).digest('hex');
writeFileSync(join(mediaDir, 'warmup.bin'), warmup);
let origin: Origin | null = null;
try {
  origin = await startOrigin(mediaDir, ['--max-sessions', '600', '--max-sessions-per-address', '600', '--max-handshakes-per-address-per-s', '0', '--cache-mb', String(Math.ceil(OBJECT_BYTES / 1048576) + 48)]);
  const results: Record<string, unknown> = { machine: { cpus: (await import('node:os')).cpus().length, loadavg: (await import('node:os')).loadavg() } };
  progress('bench.warmup');
  for (const cc of ['fixed', 'vivace']) await goodput(origin, cc, cc === 'fixed' ? { rate_bps: 20e9 } : {}, '/warmup.bin');
  progress('bench.goodput', { cc: 'fixed' });
  const fixed = await goodput(origin, 'fixed', { rate_bps: 20e9 });
  progress('bench.goodput', { cc: 'vivace' });
  const vivace = await goodput(origin, 'vivace', {});
  results.goodput = [fixed, vivace];
  mkdirSync(outDir, { recursive: true });
  if (!goodputOnly) {
    const pacingRuns = [];
    for (const rate of [50e6, 200e6]) {
      progress('bench.pacing', { rate_mbps: rate / 1e6 });
      pacingRuns.push({ rate, ...(await pacing(origin, rate)) });
    }
    results.pacing = pacingRuns.map((p) => p.summary);
    progress('bench.idle_memory');
    results.idle_memory = await idleMemory(origin, quick ? 50 : 200);
    writeFileSync(join(outDir, 'origin-bench-pacing.csv'), 'rate_mbps,window,achieved_mbps\n' +
      pacingRuns.flatMap((p) => p.windows.map((v, i) => `${p.rate / 1e6},${i},${(v / 1e6).toFixed(3)}`)).join('\n') + '\n');
    writeFileSync(join(outDir, 'origin-bench-pacing.svg'), svg(pacingRuns.map((p) => ({ label: `fixed ${p.rate / 1e6} Mbit/s`, rateBps: p.rate, windows: p.windows }))));
  }
  writeFileSync(join(outDir, 'origin-bench.json'), JSON.stringify(results, null, 2) + '\n');
  console.log('single-session goodput over loopback');
  console.table(results.goodput as object[]);
  if (!goodputOnly) {
    console.log('pacing accuracy (1 s windows, origin clock) and bursts');
    console.table(results.pacing as object[]);
    console.log('memory per idle session');
    console.table([results.idle_memory]);
  }
  console.log(`written: ${join(outDir, 'origin-bench.json')} (+ .csv, .svg)`);
} finally {
  await origin?.stop();
  rmSync(mediaBase, { recursive: true, force: true });
}
