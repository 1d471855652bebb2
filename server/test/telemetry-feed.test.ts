// The telemetry feed's line interval (PROTOCOL.md §2.5): a subscriber that asks for interval_ms gets at most one line
// per interval, the newest, and none is lost at its end; one that does not ask gets every line; a bad value is refused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TELEMETRY_INTERVAL_QUERY_KEY, TELEMETRY_PATH } from '@pcc-stream/protocol';
import type { RequestFrame } from '@pcc-stream/protocol';
import type { RequestStream } from '../src/session/request-stream.ts';
import { LineThrottle, MAX_TELEMETRY_INTERVAL_MS, serveTelemetryFeed, telemetryIntervalMs, type ThrottleTimers } from '../src/session/telemetry-feed.ts';
import { MiTelemetry } from '../src/telemetry/mi-telemetry.ts';

/** A clock the test moves by hand, with the timers that fire as it passes them. */
class ManualTimers implements ThrottleTimers {
  private now = 1000;
  private pending: Array<{ at: number; run: () => void } | null> = [];

  nowMs(): number {
    return this.now;
  }

  setTimeout(run: () => void, ms: number): unknown {
    this.pending.push({ at: this.now + ms, run });
    return this.pending.length - 1;
  }

  clearTimeout(handle: unknown): void {
    this.pending[handle as number] = null;
  }

  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const due = this.pending.map((p, i) => [p, i] as const).filter(([p]) => p !== null && p.at <= until).sort((a, b) => a[0]!.at - b[0]!.at)[0];
      if (!due) break;
      this.now = due[0]!.at;
      this.pending[due[1]] = null;
      due[0]!.run();
    }
    this.now = until;
  }
}

/** One line per monitor interval of `miMs` for `durationMs`, offered to a throttle of `intervalMs`. */
function feed(intervalMs: number, miMs: number, durationMs: number): { passed: string[]; offered: number } {
  const timers = new ManualTimers();
  const passed: string[] = [];
  const throttle = new LineThrottle(intervalMs, (line) => passed.push(line), timers);
  let offered = 0;
  for (let t = 0; t < durationMs; t += miMs) {
    throttle.offer(`{"mi":${offered}}\n`);
    offered++;
    timers.advance(miMs);
  }
  timers.advance(intervalMs);
  throttle.close();
  return { passed, offered };
}

test('at most one line per interval, the newest: 30 s of 50 ms MIs at 500 ms is 60 lines, not 600', () => {
  const { passed, offered } = feed(500, 50, 30_000);
  assert.equal(offered, 600);
  assert.ok(passed.length >= 59 && passed.length <= 61, `${passed.length} lines passed`);
  assert.equal(passed.at(-1), '{"mi":599}\n', 'the last line offered is passed once its interval is over, not dropped');
  const numbers = passed.map((l) => Number(/"mi":(\d+)/.exec(l)![1]));
  assert.ok(numbers.every((n, i) => i === 0 || n > numbers[i - 1]!), 'in order');
  assert.ok(numbers.slice(1).every((n, i) => n - numbers[i]! <= 10 + 1), 'each passed line is the newest of its interval');
});

test('interval 0 passes every line at once', () => {
  const { passed, offered } = feed(0, 50, 1000);
  assert.equal(passed.length, offered);
});

test('a line after a quiet interval passes at once; close() drops a waiting line', () => {
  const timers = new ManualTimers();
  const passed: string[] = [];
  const throttle = new LineThrottle(500, (line) => passed.push(line), timers);
  throttle.offer('a');
  timers.advance(2000);
  throttle.offer('b');
  assert.deepEqual(passed, ['a', 'b']);
  throttle.offer('c');
  throttle.close();
  timers.advance(1000);
  assert.deepEqual(passed, ['a', 'b']);
});

test('the interval comes from the request path\'s query; a bad one is refused with a reason', () => {
  assert.deepEqual(telemetryIntervalMs(TELEMETRY_PATH), { ok: true, intervalMs: 0 });
  assert.deepEqual(telemetryIntervalMs(`${TELEMETRY_PATH}?${TELEMETRY_INTERVAL_QUERY_KEY}=500`), { ok: true, intervalMs: 500 });
  assert.deepEqual(telemetryIntervalMs(`${TELEMETRY_PATH}?other=1&${TELEMETRY_INTERVAL_QUERY_KEY}=250`), { ok: true, intervalMs: 250 });
  for (const bad of ['-1', '1.5', 'abc', '', String(MAX_TELEMETRY_INTERVAL_MS + 1), '1e3']) {
    const r = telemetryIntervalMs(`${TELEMETRY_PATH}?${TELEMETRY_INTERVAL_QUERY_KEY}=${bad}`);
    assert.equal(r.ok, false, `interval_ms=${bad}`);
    if (!r.ok) assert.match(r.reason, /interval_ms must appear once/);
  }
  assert.equal(telemetryIntervalMs(`${TELEMETRY_PATH}?${TELEMETRY_INTERVAL_QUERY_KEY}=1&${TELEMETRY_INTERVAL_QUERY_KEY}=2`).ok, false);
});

/** What a feed wrote to its stream: the response frames and the body's lines; `cancel()` ends the subscription. */
function recordingStream(): { stream: RequestStream; frames: Array<{ status: number; reason: string }>; lines: () => string[]; cancel: () => void } {
  const frames: Array<{ status: number; reason: string }> = [];
  let body = '';
  let cancel = (): void => undefined;
  const cancelled = new Promise<string>((resolve) => { cancel = () => resolve('cancelled'); });
  const stream = {
    write: async (frame: { status: number; reason: string }) => { frames.push({ status: frame.status, reason: frame.reason }); return true; },
    writeRaw: async (bytes: Uint8Array) => { body += new TextDecoder().decode(bytes); return true; },
    untilCancelled: () => cancelled,
    finish: async () => undefined,
  } as unknown as RequestStream;
  return { stream, frames, lines: () => body.split('\n').filter((l) => l !== ''), cancel };
}

const request = (path: string): RequestFrame => ({ type: 'request', requestId: 7, path, windowBytes: 0 } as unknown as RequestFrame);

test('the feed applies the subscriber\'s interval: a burst of MI lines is one line now (the rest wait), every line without one', async () => {
  for (const [path, expected] of [[`${TELEMETRY_PATH}?${TELEMETRY_INTERVAL_QUERY_KEY}=${MAX_TELEMETRY_INTERVAL_MS}`, 1], [TELEMETRY_PATH, 20]] as const) {
    const telemetry = new MiTelemetry(1, 'vivace', null, 0);
    const out = recordingStream();
    const served = serveTelemetryFeed(telemetry, request(path), out.stream);
    await new Promise((r) => setImmediate(r));
    for (let mi = 0; mi < 20; mi++) telemetry.emit({ mi });
    await new Promise((r) => setImmediate(r));
    out.cancel();
    await served;
    assert.deepEqual(out.frames.map((f) => f.status), [200], path);
    assert.equal(out.lines().length, expected, `${path}: ${out.lines().length} lines`);
    assert.equal(telemetry.subscriberCount, 0, 'unsubscribed at the end');
  }
});

test('a bad interval gets a 400 response with the reason and no subscription', async () => {
  const telemetry = new MiTelemetry(1, 'vivace', null, 0);
  const out = recordingStream();
  await serveTelemetryFeed(telemetry, request(`${TELEMETRY_PATH}?${TELEMETRY_INTERVAL_QUERY_KEY}=soon`), out.stream);
  assert.equal(out.frames.length, 1);
  assert.equal(out.frames[0]!.status, 400);
  assert.match(out.frames[0]!.reason, /interval_ms/);
  assert.equal(telemetry.subscriberCount, 0);
});
