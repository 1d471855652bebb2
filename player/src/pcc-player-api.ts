// window.pccPlayer: the page's metrics API for the benchmark harness, the e2e tests and users' consoles.
import type { AbrLogRecord } from './metrics/abr-segment-log.ts';
import type { CmsdReport, SessionReport } from './session/playback-session.ts';

export interface PccPlayerApi {
  /** Metrics of session `index` (0 unless comparing), or null when that session does not exist. */
  metrics(index?: number): SessionReport | null;
  /** Metrics of every session on the page (two or more with ?compare=...). */
  allMetrics(): SessionReport[];
  /** Messages shown in the page's error banner (bad parameters, unreachable origin, failed sessions). */
  errors(): string[];
  /** Session `index`'s CMSD as handed to dash.js and its throughput samples after the etp blend, or null. */
  cmsd(index?: number): CmsdReport | null;
  /** Session `index`'s per-segment ABR record (video segments and quality switches, metrics/abr-segment-log.ts). */
  abrSegments(index?: number): AbrLogRecord[];
}

declare global {
  interface Window {
    pccPlayer: PccPlayerApi;
  }
}
