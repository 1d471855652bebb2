// Records every input one session's rate controller gets, and what it decided, as a pcc-replay script
// (controller-wasm README, "Recording and replaying a session"): `create` and `param` first, then each event
// exactly as passed to the controller, and an `expect` line whenever the pacing rate or cwnd the sender reads has
// changed. `pcc-replay --check FILE` replays it through the native library and compares every `expect`.
// Cheap on the per-packet path: one string append per event, written out in large chunks by a stream (no sync
// I/O); bounded: past the size cap recording stops with a log line and a `# truncated` marker in the file.
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { AppState, Controller, ControllerTelemetry, MiStats, ParamDesc } from '@pcc-stream/controller';
import { controllerBuild } from '@pcc-stream/controller/build-id';
import { log } from '../log.ts';

/** Default cap per session's file: about 2.5 million events (a minute at 150 Mbit/s). */
export const DEFAULT_RECORD_CAP_BYTES = 128 * 1024 * 1024;
/** Events are appended to a string and handed to the stream once it holds this much. */
const FLUSH_CHUNK_CHARS = 256 * 1024;
/** This process's controller build, computed once (hashing the sources takes a few milliseconds). */
let processBuild: string | null = null;

export interface RecordingOptions {
  dir: string;
  sessionId: number;
  algorithm: string;
  seed: number;
  nowUs: number;
  /** The overrides the controller was created with, in the order they were applied. */
  params: Record<string, number>;
  /** Context written as a comment at the top (the session's URL, ...). */
  note?: string;
  /** The controller build line written as a comment; by default that of this checkout's WASM controllers
   *  (@pcc-stream/controller/build-id), which the origin runs. */
  build?: string;
  capBytes?: number;
}

/** A Controller that forwards every call to `inner` and writes its inputs and decisions to a script file. */
export class RecordingController implements Controller {
  readonly algorithm: Controller['algorithm'];
  readonly path: string;
  readonly #inner: Controller;
  readonly #file: WriteStream;
  readonly #capBytes: number;
  #pending = '';
  #writtenBytes = 0;
  #recording = true;
  #lastRate = Number.NaN;
  #lastCwnd = Number.NaN;
  eventsRecorded = 0;

  constructor(inner: Controller, options: RecordingOptions) {
    this.#inner = inner;
    this.algorithm = inner.algorithm;
    this.#capBytes = options.capBytes ?? DEFAULT_RECORD_CAP_BYTES;
    this.path = join(options.dir, `session-${options.sessionId}-${options.algorithm}-${new Date().toISOString().replace(/[:.]/g, '-')}.replay`);
    this.#file = createWriteStream(this.path, { flags: 'wx' });
    this.#file.on('error', (err) => {
      // A full disk must not take the session down: stop recording and say so.
      if (this.#recording) log('warn', 'record.write_failed', { path: this.path, error: err.message });
      this.#recording = false;
    });
    let head = `# pcc-replay script recorded by the origin: session ${options.sessionId}, ${new Date().toISOString()}\n`;
    if (options.note) head += `# ${options.note.replace(/\n/g, ' ')}\n`;
    processBuild ??= controllerBuild().note;
    head += `# ${(options.build ?? processBuild).replace(/\n/g, ' ')}\n`;
    head += `create ${options.algorithm} ${options.seed} ${options.nowUs}\n`;
    for (const [name, value] of Object.entries(options.params)) head += `param ${name} ${value}\n`;
    this.#pending = head;
  }

  // Numbers are written with JavaScript's shortest round-trip form: strtod reads back the same double.
  packetSent(pn: number, bytes: number, nowUs: number): void {
    this.#inner.packetSent(pn, bytes, nowUs);
    if (this.#recording) this.#append(`sent ${pn} ${bytes} ${nowUs}\n`);
  }

  ack(pn: number, rttUs: number, recvTimeUs: number, nowUs: number): void {
    this.#inner.ack(pn, rttUs, recvTimeUs, nowUs);
    if (this.#recording) this.#append(`ack ${pn} ${rttUs} ${recvTimeUs} ${nowUs}\n`);
  }

  loss(pn: number, nowUs: number): void {
    this.#inner.loss(pn, nowUs);
    if (this.#recording) this.#append(`loss ${pn} ${nowUs}\n`);
  }

  tick(nowUs: number): void {
    this.#inner.tick(nowUs);
    if (this.#recording) this.#append(`tick ${nowUs}\n`);
  }

  appState(state: AppState, nowUs: number): void {
    this.#inner.appState(state, nowUs);
    if (this.#recording) {
      this.#append(`app_state ${state.appLimited ? 1 : 0} ${state.bufferMs ?? -1} ${state.bitrateBps ?? -1} ${state.deadlineUs ?? -1} ${nowUs}\n`);
    }
  }

  flush(): void {
    this.#inner.flush();
  }

  pacingRateBytesPerSec(): number {
    const rate = this.#inner.pacingRateBytesPerSec();
    if (this.#recording) this.#decision(rate, this.#inner.cwndBytes());
    return rate;
  }

  cwndBytes(): number {
    const cwnd = this.#inner.cwndBytes();
    if (this.#recording) this.#decision(this.#inner.pacingRateBytesPerSec(), cwnd);
    return cwnd;
  }

  bytesInFlight(): number {
    return this.#inner.bytesInFlight();
  }

  params(): ParamDesc[] {
    return this.#inner.params();
  }

  getParam(name: string): number {
    return this.#inner.getParam(name);
  }

  setParam(name: string, value: number): void {
    this.#inner.setParam(name, value);
    if (this.#recording) this.#append(`param ${name} ${value}\n`);
  }

  telemetry(): ControllerTelemetry {
    return this.#inner.telemetry();
  }

  setUtility(fn: ((mi: MiStats) => number) | null): void {
    // A JavaScript utility cannot be replayed natively: the recording would not reproduce the decisions.
    if (fn !== null && this.#recording) this.#stop('a custom utility was installed (not replayable)');
    this.#inner.setUtility(fn);
  }

  lastUtilityError(): string | null {
    return this.#inner.lastUtilityError();
  }

  destroy(): void {
    this.#inner.destroy();
    this.close();
  }

  /** Writes what is buffered and closes the file (idempotent). */
  close(): void {
    if (!this.#file.writable) return;
    if (this.#pending.length > 0) this.#file.write(this.#pending);
    this.#pending = '';
    this.#recording = false;
    this.#file.end();
  }

  /** Resolves once the file is complete on disk. */
  finished(): Promise<void> {
    if (this.#file.closed) return Promise.resolve();
    return new Promise((resolve) => this.#file.once('close', () => resolve()));
  }

  #decision(rate: number, cwnd: number): void {
    if (rate === this.#lastRate && cwnd === this.#lastCwnd) return;
    this.#lastRate = rate;
    this.#lastCwnd = cwnd;
    this.#append(`expect ${rate} ${cwnd}\n`);
  }

  #append(line: string): void {
    this.eventsRecorded++;
    this.#pending += line;
    if (this.#pending.length < FLUSH_CHUNK_CHARS) return;
    this.#writtenBytes += this.#pending.length; // ASCII: characters are bytes
    if (this.#writtenBytes > this.#capBytes) {
      this.#stop(`size cap of ${this.#capBytes} bytes reached`);
      return;
    }
    this.#file.write(this.#pending);
    this.#pending = '';
  }

  #stop(reason: string): void {
    this.#recording = false;
    this.#pending += `# truncated: ${reason}\n`;
    log('warn', 'record.truncated', { path: this.path, reason, events: this.eventsRecorded });
    this.close();
  }
}
