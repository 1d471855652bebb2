// Recording and replay (issue 17 item 2): the origin records a real session's controller inputs and decisions
// (--record-dir), and the native library replaying the file (pcc-replay --check) reaches every recorded decision
// bit for bit. Real origin, real Node client, real QUIC over loopback; the recorder's size cap on a real controller.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { loadControllerModule } from '@pcc-stream/controller';
import { PccClient } from '../src/client/pcc-client.ts';
import { RecordingController } from '../src/telemetry/controller-recording.ts';
import { startOrigin } from './helpers.ts';

const REPLAY = join(dirname(fileURLToPath(import.meta.url)), '../../controller-wasm/build/pcc-replay');
const SESSION_S = 2;

interface CheckSummary { lines: number; events: number; eventsRefused: number; expects: number; truncated: boolean }

function replayCheck(path: string): { status: number | null; summary: CheckSummary | null; stderr: string } {
  const r = spawnSync(REPLAY, ['--check', path], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  const line = r.stdout.trim();
  return { status: r.status, summary: line ? (JSON.parse(line) as CheckSummary) : null, stderr: r.stderr };
}

let base: string;
before(() => {
  base = mkdtempSync(join(tmpdir(), 'pcc-record-test-'));
  mkdirSync(join(base, 'media'));
  // A sparse object larger than any 2 s loopback download: cheap to create, served like any file.
  const fd = openSync(join(base, 'media', 'big.bin'), 'w');
  ftruncateSync(fd, 2 * 1024 ** 3);
  closeSync(fd);
});
after(() => rmSync(base, { recursive: true, force: true }));

for (const cc of ['vivace', 'allegro'] as const) {
  test(`a recorded ${cc} session over loopback replays natively with every decision identical`, async () => {
    const recordDir = join(base, `record-${cc}`);
    const origin = await startOrigin(join(base, 'media'), ['--record-dir', recordDir]);
    let received = 0;
    try {
      const client = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, cc });
      try {
        const r = await client.fetch('/big.bin', { onData: (c) => (received += c.length), signal: AbortSignal.timeout(SESSION_S * 1000) });
        assert.ok(r.aborted, 'the download was still running when the test stopped it');
      } finally {
        client.close();
      }
    } finally {
      assert.equal(await origin.stop(), 0);
    }
    assert.ok(received > 1_000_000, `received ${received} bytes`);
    const files = readdirSync(recordDir);
    assert.equal(files.length, 1, `one recording per session: ${files.join(', ')}`);
    const path = join(recordDir, files[0]!);
    assert.match(files[0]!, new RegExp(`^session-\\d+-${cc}-.*\\.replay$`));
    const text = readFileSync(path, 'utf8');
    assert.match(text, new RegExp(`^# pcc-replay script recorded by the origin[^\\n]*\\n# url [^\\n]*\\ncreate ${cc} \\d+ \\d+\\n`));
    const checked = replayCheck(path);
    assert.equal(checked.status, 0, checked.stderr);
    const s = checked.summary!;
    assert.equal(s.truncated, false);
    assert.equal(s.eventsRefused, 0);
    assert.ok(s.events > 2000, `events ${s.events}`);
    // The controller changed its rate many times in 2 s; each change is checked.
    assert.ok(s.expects > 10, `decisions recorded ${s.expects}`);

    // The check can fail: a fifth of the packets acknowledged in the middle third reported lost instead changes a
    // later decision of any loss-aware controller.
    const lines = text.split('\n');
    const acks = lines.map((l, i) => [l, i] as const).filter(([l]) => l.startsWith('ack '));
    for (let k = Math.floor(acks.length / 3); k < Math.floor((2 * acks.length) / 3); k += 5) {
      const [l, i] = acks[k]!;
      const [, pn, , , now] = l.split(' ');
      lines[i] = `loss ${pn} ${now}`;
    }
    const tampered = join(base, `tampered-${cc}.replay`);
    writeFileSync(tampered, lines.join('\n'));
    const bad = replayCheck(tampered);
    assert.equal(bad.status, 1, `a changed input is caught: ${bad.stderr}`);
    assert.match(bad.stderr, /"message":"decision differs"/);
  });
}

test('a recording stops at its size cap with a log line, marks the file truncated, and what it holds still replays', async () => {
  const module = await loadControllerModule();
  const dir = join(base, 'cap');
  mkdirSync(dir);
  const capBytes = 600_000;
  const recorder = new RecordingController(module.create('vivace', { nowUs: 1000, seed: 7, params: { initial_rate_bps: 20e6 } }), {
    dir, sessionId: 1, algorithm: 'vivace', seed: 7, nowUs: 1000, params: { initial_rate_bps: 20e6 }, capBytes,
  });
  // A 20 Mbit/s sender on a 40 ms path with 1200-byte packets: each packet acknowledged 40 ms after it left.
  let nowUs = 1000;
  const inFlight: Array<[number, number]> = [];
  for (let pn = 1; pn <= 60_000; pn += 1) {
    const gapUs = Math.max(1, Math.round(1200 / Math.max(1, recorder.pacingRateBytesPerSec()) * 1e6));
    nowUs += Math.min(gapUs, 5000);
    recorder.packetSent(pn, 1200, nowUs);
    inFlight.push([pn, nowUs]);
    while (inFlight.length > 0 && inFlight[0]![1] + 40_000 <= nowUs) {
      const [acked, sentUs] = inFlight.shift()!;
      recorder.ack(acked, nowUs - sentUs, 0, nowUs);
    }
    if (pn % 10 === 0) recorder.tick(nowUs);
  }
  recorder.destroy();
  await recorder.finished();
  const size = statSync(recorder.path).size;
  assert.ok(size <= capBytes + 300_000, `file ${size} bytes for a cap of ${capBytes}`);
  const text = readFileSync(recorder.path, 'utf8');
  assert.match(text, /\n# truncated: size cap of 600000 bytes reached\n$/);
  const checked = replayCheck(recorder.path);
  assert.equal(checked.status, 0, checked.stderr);
  assert.equal(checked.summary!.truncated, true);
  assert.ok(checked.summary!.expects > 5);
});
